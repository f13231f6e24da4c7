// A class bigger than a page (issue 23, point 7), in a real browser against
// the real stack: 120 answers imported from a CSV file, read 25 at a time.
// After the teacher edits a criterion, "Grade changed questions again" on
// page 2 grades every outdated result of the class again, not only the 25
// rows on screen.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { apiCall, baseURL, DESKTOP, launch, signInByAPI, toast } from '../browser.mjs';

const GRADE_TIMEOUT = 120_000;
const CLASS = 120;

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function ok(page, path, body) {
  const res = await apiCall(page, 'POST', path, body);
  assert.equal(res.status, 200, `${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** rows reads the whole class's table as the page does (submission-rows). */
async function rows(page, assignmentId) {
  return ok(page, '/api/v1/db/assignment/submission-rows', { assignmentId, limit: 25, ids: true });
}

async function until(check, what) {
  const deadline = Date.now() + GRADE_TIMEOUT;
  while (!(await check())) {
    assert.ok(Date.now() < deadline, `waited too long for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

test('a class of 120 read 25 at a time: "Grade changed questions again" regrades the whole class', async () => {
  const ctx = await browser.newContext({ viewport: DESKTOP });
  const page = await ctx.newPage();
  try {
    await signInByAPI(page, 'Ada Bigclass', 'ada.bigclass@school.test');
    const { assignment } = await ok(page, '/api/v1/db/assignment/put', {
      name: 'Plants, whole year', type: 'grade', isHandWritten: false, provideInstantFeedback: false,
    });
    const id = assignment._id;
    const criterion = (description) => ({
      questionText: 'How do plants make food?', context: '', rubricId: null, subquestions: [],
      criteria: [{ description, points: 2 }],
    });
    const { function: fn } = await ok(page, '/api/v1/db/function/put', { assignmentId: id, questions: [criterion('Mentions sunlight and photosynthesis')] });

    // The class arrives as a CSV export: one row per pupil.
    const lines = ['Name,Answer'];
    for (let i = 1; i <= CLASS; i++) lines.push(`Pupil ${String(i).padStart(3, '0')},Plants use sunlight for photosynthesis (pupil ${i}).`);
    const csv = lines.join('\n') + '\n';
    const up = await ok(page, '/api/v1/s3-upload', {
      fileName: `assignments/${id}/submissions/year.csv`, fileType: 'text/csv', fileSize: new TextEncoder().encode(csv).length,
    });
    const put = await page.evaluate(
      async ({ url, text }) => (await fetch(url, { method: 'PUT', headers: { 'Content-Type': 'text/csv' }, body: text })).status,
      { url: up.signedUrl, text: csv },
    );
    assert.ok(put >= 200 && put < 300, `PUT of the CSV: ${put}`);
    const imported = await ok(page, '/api/v1/db/assignment/update-submissions-csv', {
      assignmentId: id, submissionRole: 'teacher', type: 'grade', csvLocation: up.fileUrl,
      parsedCSV: { nameColumn: 0, emailColumn: -1, questions: [{ question: 0, column: 1 }] },
    });
    assert.equal(imported.imported, CLASS);

    // Graded once, then the teacher changes the criterion: every result is outdated.
    const { submissionIds } = await rows(page, id);
    await ok(page, '/api/v1/lambda/runFunctionOnMany', { assignmentId: id, submissionIds });
    await until(async () => (await rows(page, id)).counts.graded === CLASS, 'the class to be graded');
    await ok(page, '/api/v1/db/function/update', { assignmentId: id, functionId: fn._id, questions: [criterion('Mentions sunlight, water and photosynthesis')] });
    assert.equal((await rows(page, id)).outdatedIds.length, CLASS);

    // Page 2 of 5 shows 25 rows; the button grades all 120 again.
    await page.goto(`${baseURL}/assignment/${id}?per=25&page=2`);
    await page.getByRole('table', { name: 'Submissions' }).getByRole('link', { name: 'Pupil 026' }).waitFor();
    await page.getByRole('button', { name: 'Grade changed questions again' }).click();
    await toast(page, `Grading the changed questions of ${CLASS} submissions again.`);
    await until(async () => (await rows(page, id)).outdatedIds.length === 0 && (await rows(page, id)).counts.graded === CLASS, 'the class to be graded again');
    await page.getByRole('button', { name: 'Grade changed questions again' }).waitFor({ state: 'detached', timeout: GRADE_TIMEOUT });
  } finally {
    await ctx.close();
  }
});
