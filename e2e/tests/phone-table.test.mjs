// The submissions table on a phone (390×844): every row's actions button (⋮) is on the screen
// without swiping sideways, and it opens the row's menu.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { baseURL, DESKTOP, fullShot, launch, PHONE, signInByAPI, apiOK as ok, uploadTexts as upload, submissionRow as row } from '../browser.mjs';

/** How long a text file may take to be read on this loaded machine. */
const READ_TIMEOUT = 60_000;

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test('phone: every row of the submissions table shows its actions button within the screen', async () => {
  const ctx = await browser.newContext({ viewport: DESKTOP });
  const page = await ctx.newPage();
  try {
    await signInByAPI(page, 'Petra Phone', 'petra.phone@school.test');
    const { assignment } = await ok(page, '/api/v1/db/assignment/put', { name: 'Rivers essay', type: 'prompt', isHandWritten: false, provideInstantFeedback: false });
    const id = assignment._id;
    await ok(page, '/api/v1/db/function/put', { assignmentId: id, prompt: 'Give two strengths and one next step.' });
    const files = {
      'amelia-hartley-rivers-essay-final-version.txt': 'Amelia: rivers carve valleys over thousands of years.',
      'ben.txt': 'Ben: the delta forms where the river slows down.',
      'christopher_montgomery_homework.txt': 'Christopher: meanders move as the outer bank erodes.',
      'dee.txt': 'Dee: a flood plain is flat land the river covers in a flood.',
    };
    await upload(page, id, files);
    const names = Object.keys(files);

    // At 1280 wide the table is as before: every column, the status column says Ready.
    await page.goto(`${baseURL}/assignment/${id}`);
    for (const n of names) await row(page, n).getByText('Ready', { exact: true }).waitFor({ timeout: READ_TIMEOUT });
    await fullShot(page, 'phone-table-1280');

    // Opened on a phone (no status column there).
    await page.setViewportSize(PHONE);
    await page.reload();
    const table = page.getByRole('table', { name: 'Submissions' });
    for (const n of names) await table.getByRole('button', { name: `Actions for ${n}` }).waitFor();
    const width = PHONE.width;
    for (const n of names) {
      const box = await table.getByRole('button', { name: `Actions for ${n}` }).boundingBox();
      assert.ok(box, `Actions for ${n} has a box`);
      assert.ok(box.x >= 0 && box.x + box.width <= width, `Actions for ${n} at x=${box.x}..${box.x + box.width}, past the ${width}px screen`);
    }
    const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(over <= 0, `the page is ${over}px wider than the phone`);
    await fullShot(page, 'phone-table-390');

    // The button opens the row's menu where it is (no sideways swipe first).
    const long = names[2]; // a truncated name
    await table.getByRole('button', { name: `Actions for ${long}` }).click();
    const menu = page.getByRole('menu');
    await menu.getByRole('menuitem', { name: 'Rename' }).waitFor();
    await menu.getByRole('menuitem', { name: 'Delete' }).waitFor();
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
  } finally {
    await ctx.close();
  }
});
