// The original work next to the text (issue 19, point 3): on the review screen a PDF, a photo and a
// Word file are shown as their pages beside the text read from them (side by side at 1280, a toggle
// "Original / Text" at 390), with paging and zoom; the row menu's "Download original" downloads the
// file under its name.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { apiCall, baseURL, checkA11y, DESKTOP, launch, PHONE, pickFiles, shot, signInByAPI, toast } from '../browser.mjs';

/** The extraction fixtures: real files made by real producers (see their README). */
const fixtures = resolve(import.meta.dirname, '..', '..', 'internal', 'extract', 'testdata');
/** Reading, OCR and the first LibreOffice conversion on this loaded machine. */
const TIMEOUT = 120_000;

let browser;
let ctx;
let page;
before(async () => {
  browser = await launch();
  ctx = await browser.newContext({ viewport: DESKTOP, acceptDownloads: true });
  page = await ctx.newPage();
  await signInByAPI(page, 'Olive Original', 'olive.original@school.test');
});
after(async () => {
  await browser?.close();
});

async function ok(path, body) {
  const res = await apiCall(page, 'POST', path, body);
  assert.equal(res.status, 200, `${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** Waits until the original's page image has loaded, and returns its rendered size and place. */
async function pageImage(name) {
  const img = page.getByRole('img', { name });
  await img.waitFor({ timeout: TIMEOUT });
  await img.evaluate((el) => (el.complete && el.naturalWidth > 0 ? null : new Promise((done) => el.addEventListener('load', done, { once: true }))));
  assert.ok(await img.evaluate((el) => el.naturalWidth > 0), `${name} shows a picture`);
  return img;
}

test('the original of a PDF, a photo and a Word file beside its text; Download original', async () => {
  const { assignment } = await ok('/api/v1/db/assignment/put', { name: 'Originals', type: 'grade', isHandWritten: false, provideInstantFeedback: false });
  const id = assignment._id;
  await ok('/api/v1/db/function/put', {
    assignmentId: id,
    questions: [{ questionText: 'Explain photosynthesis.', context: '', rubricId: null, criteria: [{ description: 'Mentions sunlight', points: 2 }], subquestions: [] }],
  });

  await page.goto(`${baseURL}/assignment/${id}`);
  await page.getByText('No submissions yet').waitFor();
  const names = ['text-3pages.pdf', 'printed.png', 'report.docx'];
  await pickFiles(
    page,
    page.getByRole('button', { name: 'Upload files' }),
    names.map((n) => join(fixtures, n)),
  );
  const table = page.getByRole('table', { name: 'Submissions' });
  for (const n of names) {
    await table.getByRole('row').filter({ hasText: n }).getByText('Ready', { exact: true }).waitFor({ timeout: TIMEOUT });
  }

  // Graded by the demo model, so the review shows the answers too.
  await page.getByRole('button', { name: 'Grade all', exact: true }).click();
  await toast(page, 'Grading submissions! This should take 1-2 minutes.');
  for (const n of names) {
    await table.getByRole('row').filter({ hasText: n }).getByText('Graded', { exact: true }).waitFor({ timeout: TIMEOUT });
  }

  // Download original, from the row's menu: the file itself, under its name.
  await table.getByRole('button', { name: 'Actions for report.docx' }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'Download original' }).click()]);
  assert.equal(download.suggestedFilename(), 'report.docx');
  const saved = readFileSync(await download.path());
  assert.deepEqual(saved, readFileSync(join(fixtures, 'report.docx')), 'the downloaded file is the one uploaded');

  const { submissions } = await ok('/api/v1/db/assignment/get', { assignmentId: id });
  const idOf = (n) => submissions.find((s) => s.name === n)._id;

  // A PDF: page 1 of 3 beside the text, paged and zoomed with buttons.
  await page.goto(`${baseURL}/assignment/${id}/submission/${idOf('text-3pages.pdf')}`);
  const original = page.getByRole('region', { name: 'Original', exact: true });
  await original.getByText('Page 1 of 3').waitFor({ timeout: TIMEOUT });
  let img = await pageImage('Page 1 of 3 of the original');
  const text = page.getByRole('region', { name: 'Submission text', exact: true });
  await text.waitFor();
  const [imgBox, textBox] = [await img.boundingBox(), await text.boundingBox()];
  assert.ok(imgBox.x + imgBox.width <= textBox.x, `the original (${JSON.stringify(imgBox)}) is left of the text (${JSON.stringify(textBox)})`);
  assert.ok(imgBox.y < textBox.y + textBox.height && textBox.y < imgBox.y + imgBox.height, 'side by side, not stacked');
  await shot(page, 'original-pdf-1280');
  await original.getByRole('button', { name: 'Next page' }).click();
  await pageImage('Page 2 of 3 of the original');
  const before = (await (await pageImage('Page 2 of 3 of the original')).boundingBox()).width;
  await original.getByRole('button', { name: 'Zoom in' }).click();
  await original.getByText('150%').waitFor();
  const after = (await page.getByRole('img', { name: 'Page 2 of 3 of the original' }).boundingBox()).width;
  assert.ok(after > before * 1.4, `zoomed in: ${before} → ${after}px`);
  await original.getByRole('button', { name: 'Previous page' }).click();
  await pageImage('Page 1 of 3 of the original');

  // On a phone: a toggle, the text first; the original one tap away.
  await page.setViewportSize(PHONE);
  const toggle = page.getByRole('group', { name: 'Show the original or the text' });
  await toggle.getByRole('button', { name: 'Text' }).waitFor();
  assert.equal(await original.isVisible(), false, 'the text first');
  assert.equal(await text.isVisible(), true);
  await toggle.getByRole('button', { name: 'Original' }).click();
  await pageImage('Page 1 of 3 of the original');
  assert.equal(await text.isVisible(), false);
  const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(over <= 0, `${over}px wider than the phone`);
  await shot(page, 'original-pdf-390');
  await toggle.getByRole('button', { name: 'Text' }).click();
  await text.waitFor();
  await page.setViewportSize(DESKTOP);

  // A photo: its one page beside the text OCR read from it.
  await page.goto(`${baseURL}/assignment/${id}/submission/${idOf('printed.png')}`);
  await original.getByText('Photo').waitFor({ timeout: TIMEOUT });
  img = await pageImage('Page 1 of 1 of the original');
  await text.getByText('Photosynthesis', { exact: false }).first().waitFor();
  await page.getByRole('region', { name: 'Answers' }).waitFor();
  assert.ok((await img.boundingBox()).x < (await text.boundingBox()).x);
  await checkA11y(page, 'original-photo-1280');

  // A Word file: LibreOffice's pages beside the text read from the file.
  await page.goto(`${baseURL}/assignment/${id}/submission/${idOf('report.docx')}`);
  await original.getByText('Word file, shown as its pages', { exact: false }).waitFor({ timeout: TIMEOUT });
  img = await pageImage(/^Page 1 of \d+ of the original$/);
  const box = await img.boundingBox();
  assert.ok(box.height > box.width, 'a portrait page');
  assert.ok(box.x < (await text.boundingBox()).x, 'beside the text');
  await shot(page, 'original-docx-1280');
  await page.setViewportSize(PHONE);
  await page.getByRole('group', { name: 'Show the original or the text' }).getByRole('button', { name: 'Original' }).click();
  await pageImage(/^Page 1 of \d+ of the original$/);
  await shot(page, 'original-docx-390');
  await page.setViewportSize(DESKTOP);
});
