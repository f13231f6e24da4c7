// The quality signal (issue 20, point 4): a PDF whose page 2 is a poor scan (blurred, noisy) is read,
// OCR is unsure of page 2, and the teacher sees it: a warning with a "Check page 2" link in the
// submissions table, a notice above the text on the review screen naming page 2, and the original
// opened at page 2, with how each page's text was read.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { apiCall, baseURL, checkA11y, DESKTOP, launch, pickFiles, shot, signInByAPI } from '../browser.mjs';

/** The extraction fixtures: real files made by real producers (see their README). */
const fixtures = resolve(import.meta.dirname, '..', '..', 'internal', 'extract', 'testdata');
/** Reading and OCR on this loaded machine (the scan's OCR takes 2–10 s; a table that stopped polling never shows it). */
const TIMEOUT = 120_000;

let browser;
let page;
before(async () => {
  browser = await launch();
  const ctx = await browser.newContext({ viewport: DESKTOP });
  page = await ctx.newPage();
  await signInByAPI(page, 'Quinn Quality', 'quinn.quality@school.test');
});
after(async () => {
  await browser?.close();
});

async function ok(path, body) {
  const res = await apiCall(page, 'POST', path, body);
  assert.equal(res.status, 200, `${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

test('a page OCR was unsure of is flagged in the table and on the review screen, which opens the original at it', async () => {
  const { assignment } = await ok('/api/v1/db/assignment/put', { name: 'Scanned homework', type: 'grade', isHandWritten: false, provideInstantFeedback: false });
  const id = assignment._id;
  await ok('/api/v1/db/function/put', {
    assignmentId: id,
    questions: [{ questionText: 'Explain photosynthesis.', context: '', rubricId: null, criteria: [{ description: 'Mentions sunlight', points: 2 }], subquestions: [] }],
  });

  await page.goto(`${baseURL}/assignment/${id}`);
  await page.getByText('No submissions yet').waitFor();
  await pickFiles(page, page.getByRole('button', { name: 'Upload files' }), [join(fixtures, 'blurred-page.pdf'), join(fixtures, 'text-3pages.pdf')]);
  const table = page.getByRole('table', { name: 'Submissions' });
  const row = table.getByRole('row').filter({ hasText: 'blurred-page.pdf' });
  await row.getByText('Ready', { exact: true }).waitFor({ timeout: TIMEOUT });
  await table.getByRole('row').filter({ hasText: 'text-3pages.pdf' }).getByText('Ready', { exact: true }).waitFor({ timeout: TIMEOUT });

  // The table: the summary, and a link to the original at the doubtful page.
  await row.getByText('Page 2 may be misread: check it against the original').waitFor();
  const check = row.getByRole('link', { name: 'Check page 2 of blurred-page.pdf against the original' });
  await check.hover();
  await page.getByRole('tooltip').getByText('Page 2 may be misread: check it against the original').waitFor();
  const clean = table.getByRole('row').filter({ hasText: 'text-3pages.pdf' });
  assert.equal(await clean.getByRole('link', { name: /against the original/ }).count(), 0, 'a clean PDF is not flagged');
  await shot(page, 'extraction-quality-table-1280');

  // By the keyboard: the link is focusable and opens the review screen at page 2.
  await check.focus();
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/submission\/[^/?]+\?page=2$/);
  const original = page.getByRole('region', { name: 'Original', exact: true });
  await original.getByText('Page 2 of 2').waitFor({ timeout: TIMEOUT });
  const img = page.getByRole('img', { name: 'Page 2 of 2 of the original' });
  await img.waitFor({ timeout: TIMEOUT });
  await original.getByText(/^Text read from: OCR \d+%$/).waitFor();
  await original.getByText(/^Page 2 was read by OCR, which was unsure of it \(\d+%\): check it against the original$/).waitFor();

  // The notice above the text names page 2 and shows it in the original.
  const notice = page.getByRole('alert', { name: 'Text that may be misread' });
  await notice.getByText(/Page 2 was read by OCR, which was unsure of it \(\d+%\)/).waitFor();
  await original.getByRole('button', { name: 'Previous page' }).click();
  await original.getByText('Page 1 of 2').waitFor();
  await original.getByText('Text read from: Text layer').waitFor();
  await notice.getByRole('button', { name: 'Show page 2 of the original' }).click();
  await original.getByText('Page 2 of 2').waitFor();
  await img.evaluate((el) => (el.complete && el.naturalWidth > 0 ? null : new Promise((done) => el.addEventListener('load', done, { once: true }))));
  await shot(page, 'extraction-quality-review-1280');
  await checkA11y(page, 'extraction-quality-review-1280');
});
