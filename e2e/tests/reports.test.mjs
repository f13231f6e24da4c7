// Feedback reports in a real browser against the real stack (API, worker with
// LibreOffice, the demo model): a teacher grades a small class, prints every
// report from the submissions toolbar (the dialog's progress, then the ZIP and
// the one PDF), and downloads one student's report from the review screen.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { apiCall, baseURL, DESKTOP, launch, outDir, shotBoth, signInByAPI, toast, apiOK as ok, uploadTexts as upload, submissionRow as row } from '../browser.mjs';

/** How long reading, grading and printing may take on this loaded machine. */
const TIMEOUT = 180_000;

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** fetchHead reads the first bytes of a signed URL from the page, as the browser's link would. */
async function fetchHead(page, url) {
  return page.evaluate(async (u) => {
    const res = await fetch(u);
    const bytes = new Uint8Array(await res.arrayBuffer());
    return { status: res.status, head: String.fromCharCode(...bytes.slice(0, 4)), size: bytes.length };
  }, url);
}

test('reports: print a graded class (ZIP and one PDF) and download one report', async () => {
  const ctx = await browser.newContext({ viewport: DESKTOP, acceptDownloads: true });
  const page = await ctx.newPage();
  try {
    await signInByAPI(page, 'Rita Reports', 'rita.reports@school.test');
    const { assignment } = await ok(page, '/api/v1/db/assignment/put', { name: 'Plants quiz', type: 'grade', isHandWritten: false });
    await ok(page, '/api/v1/db/function/put', {
      assignmentId: assignment._id,
      questions: [
        {
          questionText: 'How do plants make food?',
          context: '',
          rubricId: null,
          criteria: [
            { description: 'Mentions sunlight and photosynthesis', points: 2 },
            { description: 'Names carbon dioxide and water', points: 1 },
          ],
          subquestions: [],
        },
      ],
    });
    const files = {
      'ana.txt': 'Plants use sunlight for photosynthesis, taking in carbon dioxide and water.',
      'boris.txt': 'Растения используют солнечный свет. Plants eat soil.',
      'chen.txt': '植物利用阳光进行光合作用。Photosynthesis needs sunlight.',
    };
    const names = Object.keys(files);
    await upload(page, assignment._id, files);
    await page.goto(`${baseURL}/assignment/${assignment._id}`);
    for (const n of names) await row(page, n).getByText('Ready', { exact: true }).waitFor({ timeout: TIMEOUT });
    await page.getByRole('button', { name: 'Grade all' }).click();
    await toast(page, 'Grading submissions! This should take 1-2 minutes.');
    for (const n of names) await row(page, n).getByText('Graded', { exact: true }).waitFor({ timeout: TIMEOUT });

    // Print every report: the dialog shows progress, then the two links.
    await page.getByRole('button', { name: 'Print reports' }).click();
    const dialog = page.getByRole('dialog', { name: 'Print feedback reports' });
    await dialog.waitFor();
    await dialog.getByRole('progressbar').waitFor();
    await shotBoth(page, 'reports-dialog-progress', { dialog: true });
    const zip = dialog.getByRole('link', { name: 'Download all (ZIP)' });
    await zip.waitFor({ timeout: TIMEOUT });
    await dialog.getByText('3 reports ready.').waitFor();
    await shotBoth(page, 'reports-dialog-done', { dialog: true });
    const zipHead = await fetchHead(page, await zip.getAttribute('href'));
    assert.equal(zipHead.status, 200);
    assert.equal(zipHead.head.slice(0, 2), 'PK', 'a ZIP');
    const pdfURL = await dialog.getByRole('link', { name: 'Print (one PDF)' }).getAttribute('href');
    const pdfHead = await fetchHead(page, pdfURL);
    assert.equal(pdfHead.status, 200);
    assert.equal(pdfHead.head, '%PDF');
    const combined = await page.evaluate(async (u) => Array.from(new Uint8Array(await (await fetch(u)).arrayBuffer())), pdfURL);
    await writeFile(join(outDir, 'reports-combined.pdf'), Buffer.from(combined));
    await dialog.getByRole('button', { name: 'Close' }).click();

    // One student's report from the review screen.
    await row(page, 'boris.txt').getByRole('link', { name: 'boris.txt' }).click();
    await page.waitForURL(/\/submission\/[0-9a-f-]{36}$/);
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: TIMEOUT }),
      page.getByRole('button', { name: 'Download report (PDF)' }).click(),
    ]);
    // Named after the whole file name when the pupil's name is not known (boris.txt and a boris.png would clash).
    assert.equal(download.suggestedFilename(), 'boris.txt.pdf');
    await download.saveAs(join(outDir, 'reports-one.pdf'));
  } finally {
    await ctx.close();
  }
});
