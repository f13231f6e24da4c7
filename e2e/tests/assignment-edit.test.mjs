// Correcting an assignment after it is made (issue 19, item 2), in a real
// browser against the real stack (API, worker, the demo model): a grade
// assignment is graded, a criterion's text and points are edited in the
// editor the wizard uses; the totals change at once, the rows say they were
// graded against an earlier version, "Grade changed questions again"
// regrades them, and the history lists the change.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { apiCall, baseURL, checkA11y, DESKTOP, launch, shotBoth, signInByAPI, toast } from '../browser.mjs';

const GRADE_TIMEOUT = 90_000;

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function ok(page, path, body, method = 'POST') {
  const res = await apiCall(page, method, path, body);
  assert.equal(res.status, 200, `${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** upload sends text files as a teacher's batch upload does (signed PUT, then update-submissions). */
async function upload(page, assignmentId, files) {
  const submissions = [];
  for (const [name, text] of Object.entries(files)) {
    const up = await ok(page, '/api/v1/s3-upload', {
      fileName: `assignments/${assignmentId}/submissions/${name}`,
      fileType: 'text/plain',
      fileSize: new TextEncoder().encode(text).length,
    });
    const put = await page.evaluate(
      async ({ url, text }) => (await fetch(url, { method: 'PUT', headers: { 'Content-Type': 'text/plain' }, body: text })).status,
      { url: up.signedUrl, text },
    );
    assert.ok(put >= 200 && put < 300, `PUT of ${name}: ${put}`);
    submissions.push({ name, location: up.fileUrl });
  }
  await ok(page, '/api/v1/db/assignment/update-submissions', {
    assignmentId,
    submissions,
    submissionRole: 'teacher',
    requiresTextractArray: submissions.map(() => true),
    requiresPDFReadArray: submissions.map(() => false),
    requiresImageReadArray: submissions.map(() => false),
    isHandWritten: false,
  });
}

function row(page, name) {
  return page.getByRole('table', { name: 'Submissions' }).getByRole('row').filter({ hasText: name });
}

const OUTDATED = 'Graded against an earlier version';

test('grade: a criterion edited after grading re-totals at once, marks the rows, regrades only them and is in the history', async () => {
  const ctx = await browser.newContext({ viewport: DESKTOP });
  const page = await ctx.newPage();
  try {
    await signInByAPI(page, 'Ada Editor', 'ada.editor@school.test');
    const { assignment } = await ok(page, '/api/v1/db/assignment/put', {
      name: 'Plants', type: 'grade', isHandWritten: false, provideInstantFeedback: false,
    });
    const id = assignment._id;
    await ok(page, '/api/v1/db/function/put', {
      assignmentId: id,
      questions: [
        {
          questionText: 'How do plants make food?', context: '', rubricId: null, subquestions: [],
          criteria: [
            { description: 'Mentions sunlight and photosynthesis', points: 2 },
            { description: 'Names carbon dioxide and water', points: 1 },
          ],
        },
        {
          questionText: 'Why do leaves look green?', context: '', rubricId: null, subquestions: [],
          criteria: [{ description: 'Explains chlorophyll reflects green light', points: 2 }],
        },
      ],
    });
    const names = ['ana.txt', 'cy.txt'];
    await upload(page, id, {
      'ana.txt': 'Plants use sunlight for photosynthesis, taking in carbon dioxide and water. Chlorophyll reflects green light.',
      'cy.txt': 'Photosynthesis needs sunlight. Chlorophyll reflects green light so leaves look green.',
    });
    await page.goto(`${baseURL}/assignment/${id}`);
    for (const n of names) await row(page, n).getByText('Ready', { exact: true }).waitFor({ timeout: GRADE_TIMEOUT });
    await page.getByRole('button', { name: 'Grade all' }).click();
    for (const n of names) await row(page, n).getByText('Graded', { exact: true }).waitFor({ timeout: GRADE_TIMEOUT });
    await row(page, 'ana.txt').getByText('5 / 5').waitFor();
    await row(page, 'cy.txt').getByText('4 / 5').waitFor();
    assert.equal(await page.getByText(OUTDATED).count(), 0, 'nothing is outdated before an edit');
    await page.getByText('No changes since the assignment was created.').waitFor();

    // The editor opens with the saved definition.
    await page.getByRole('link', { name: 'Edit assignment' }).click();
    await page.waitForURL(new RegExp(`/assignment/${id}/edit$`));
    const criterion = page.getByRole('group', { name: 'Criterion 1 of question 2' });
    const text = criterion.getByRole('textbox', { name: 'Criterion' });
    await text.waitFor();
    assert.equal(await text.inputValue(), 'Explains chlorophyll reflects green light');
    assert.equal(await page.getByRole('textbox', { name: 'Question text' }).first().inputValue(), 'How do plants make food?');
    await shotBoth(page, 'assignment-edit');
    await checkA11y(page, 'assignment-edit');

    await text.fill('Explains that chlorophyll reflects green light');
    await criterion.getByRole('spinbutton', { name: 'Points' }).or(criterion.getByRole('textbox', { name: 'Points' })).fill('4');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await toast(page, 'Changes saved.');
    await page.waitForURL(new RegExp(`/assignment/${id}$`));

    // The totals follow at once; both rows were graded against the earlier version.
    await row(page, 'ana.txt').getByText('7 / 7').waitFor();
    await row(page, 'cy.txt').getByText('6 / 7').waitFor();
    for (const n of names) await row(page, n).getByText(OUTDATED).waitFor();
    const history = page.getByRole('region', { name: 'History' });
    await history.getByText('Ada Editor changed the points of 2: 2 → 4 (“Explains that chlorophyll reflects green light”)').waitFor();
    await history
      .getByText('Ada Editor changed a criterion of 2: “Explains chlorophyll reflects green light” → “Explains that chlorophyll reflects green light”')
      .waitFor();
    await shotBoth(page, 'assignment-edit-outdated');

    // The review screen says so too, naming what changed; Back returns to the class.
    await row(page, 'ana.txt').getByRole('link', { name: /ana\.txt/ }).first().click();
    const notice = page.getByRole('alert').filter({ hasText: 'Graded against an earlier version' });
    await notice.waitFor();
    await notice.getByText(/Changed since it was graded: /).waitFor();
    await shotBoth(page, 'review-outdated');
    await page.goBack();
    await page.waitForURL(new RegExp(`/assignment/${id}$`));

    // "Grade changed questions again" regrades only those rows; the marks go.
    await page.getByRole('button', { name: 'Grade changed questions again' }).click();
    await toast(page, 'Grading the changed questions of 2 submissions again.');
    for (const n of names) {
      await row(page, n).getByText('Graded', { exact: true }).waitFor({ timeout: GRADE_TIMEOUT });
    }
    await page.waitForFunction((label) => !document.body.innerText.includes(label), OUTDATED, { timeout: GRADE_TIMEOUT });
    await row(page, 'ana.txt').getByText('7 / 7').waitFor();
    await row(page, 'cy.txt').getByText('6 / 7').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Grade changed questions again' }).count(), 0);

    // The API agrees, and another team's teacher cannot read the history.
    const data = await ok(page, '/api/v1/db/assignment/get', { assignmentId: id });
    assert.deepEqual(data.functionResults.map((r) => r.outdated), [false, false]);
    const stranger = await browser.newContext({ viewport: DESKTOP });
    const other = await stranger.newPage();
    await signInByAPI(other, 'Bob Other', 'bob.other@school.test');
    const res = await apiCall(other, 'POST', '/api/v1/db/assignment/history', { assignmentId: id });
    assert.equal(res.status, 404);
    await stranger.close();
  } finally {
    await ctx.close();
  }
});
