// A teacher's edits are never overwritten (issue 19, point 1), in a real
// browser against the real stack (API, worker, the demo model): a criterion
// ticked by hand makes the result Reviewed at once; "Grade selected" then
// asks, and "Skip the one you reviewed" keeps the tick and the total while
// the other submission is graded; "Grade it again too" replaces the tick
// with the AI's grade. The API refuses to regrade it unasked as well.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { apiCall, baseURL, DESKTOP, launch, shotBoth, signInByAPI, toast, apiOK as ok, uploadTexts as upload, submissionRow as row } from '../browser.mjs';

/** How long a batch may take to be read and graded on this loaded machine. */
const GRADE_TIMEOUT = 90_000;

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** The points a row shows, "2 / 5". */
async function pointsOf(page, name) {
  const text = await row(page, name).innerText();
  return text.match(/(\d+(?:\.\d+)?) \/ (\d+(?:\.\d+)?)/)?.[0] ?? null;
}

const totalOf = async (page) => {
  const label = await page.getByLabel(/^Total .* points$/).first().getAttribute('aria-label');
  return Number(label.match(/^Total ([\d.]+)/)[1]);
};

/** Selects the rows named and presses "Grade selected". */
async function gradeSelected(page, names) {
  for (const n of names) await page.getByRole('checkbox', { name: `Select ${n}` }).check();
  await page.getByRole('button', { name: 'Grade selected' }).click();
}

test('a ticked criterion is kept when the class is graded again, unless the teacher asks', async () => {
  const ctx = await browser.newContext({ viewport: DESKTOP });
  const page = await ctx.newPage();
  try {
    await signInByAPI(page, 'Rita Reviewer', 'rita.reviewer@school.test');
    const { assignment } = await ok(page, '/api/v1/db/assignment/put', { name: 'Water cycle', type: 'grade', isHandWritten: false });
    const id = assignment._id;
    await ok(page, '/api/v1/db/function/put', {
      assignmentId: id,
      questions: [
        {
          questionText: 'How does water reach the clouds?',
          context: '',
          rubricId: null,
          criteria: [
            { description: 'Explains evaporation from the sea', points: 2 },
            { description: 'Explains condensation into clouds', points: 1 },
          ],
          subquestions: [],
        },
        {
          questionText: 'What brings it back?',
          context: '',
          rubricId: null,
          criteria: [{ description: 'Names rain as precipitation', points: 2 }],
          subquestions: [],
        },
      ],
    });
    const subs = await upload(page, id, {
      'ana.txt': 'Evaporation from the sea lifts water; condensation into clouds follows. Rain is precipitation.',
      'ben.txt': 'Water goes up. Then it comes down again.',
    });
    const ben = subs.find((s) => s.name === 'ben.txt')._id;

    await page.goto(`${baseURL}/assignment/${id}`);
    for (const n of ['ana.txt', 'ben.txt']) await row(page, n).getByText('Ready', { exact: true }).waitFor({ timeout: GRADE_TIMEOUT });
    await page.getByRole('button', { name: 'Grade all' }).click();
    await toast(page, 'Grading submissions! This should take 1-2 minutes.');
    for (const n of ['ana.txt', 'ben.txt']) await row(page, n).getByText('Graded', { exact: true }).waitFor({ timeout: GRADE_TIMEOUT });
    const aiPoints = await pointsOf(page, 'ben.txt');
    assert.ok(aiPoints, 'ben.txt shows its points');

    // The teacher ticks a criterion the AI missed, with the mouse.
    await row(page, 'ben.txt').getByRole('link', { name: 'ben.txt' }).click();
    await page.waitForURL(new RegExp(`/assignment/${id}/submission/${ben}$`));
    const criteria = page.getByRole('group', { name: 'Criteria of question 1' });
    await criteria.waitFor();
    const evaporation = criteria.getByRole('checkbox', { name: /Explains evaporation from the sea/ });
    assert.equal(await evaporation.isChecked(), false, 'the demo model missed it');
    const before = await totalOf(page);
    await evaporation.click();
    await page.getByText('Reviewed', { exact: true }).first().waitFor();
    await page.waitForFunction((b) => {
      const label = document.querySelector('[aria-label^="Total "][aria-label$=" points"]')?.getAttribute('aria-label') ?? '';
      return Number(label.match(/^Total ([\d.]+)/)?.[1]) === b + 2;
    }, before);
    const ticked = before + 2;

    // Back on the assignment (in the app, from its cache): the row says Reviewed at once.
    await page.getByRole('link', { name: 'Water cycle' }).first().click();
    await page.waitForURL(new RegExp(`/assignment/${id}$`));
    await row(page, 'ben.txt').getByText('Reviewed', { exact: true }).waitFor({ timeout: 5_000 });
    const reviewedPoints = await pointsOf(page, 'ben.txt');
    assert.notEqual(reviewedPoints, aiPoints);

    // "Grade selected" with both: the dialog offers to skip the reviewed one, focused.
    await gradeSelected(page, ['ana.txt', 'ben.txt']);
    const dialog = page.getByRole('dialog', { name: 'You reviewed 1 of the 2 submissions' });
    await dialog.waitFor();
    const skip = dialog.getByRole('button', { name: 'Skip the one you reviewed' });
    assert.equal(await skip.evaluate((el) => el === document.activeElement), true, 'skipping is the default');
    await dialog.getByRole('button', { name: 'Grade it again too' }).waitFor();
    await shotBoth(page, 'review-protection-dialog', { dialog: true });
    await page.setViewportSize(DESKTOP);
    await skip.click();
    await toast(page, 'Grading submissions! This should take 1-2 minutes.');
    await row(page, 'ana.txt').getByText('Graded', { exact: true }).waitFor({ timeout: GRADE_TIMEOUT });
    await row(page, 'ben.txt').getByText('Reviewed', { exact: true }).waitFor();
    assert.equal(await pointsOf(page, 'ben.txt'), reviewedPoints, 'the total stays');

    // The API called directly, without overwriteReviewed, leaves it alone too.
    const direct = await ok(page, '/api/v1/lambda/runFunctionOnMany', { assignmentId: id, submissionIds: [ben] });
    assert.equal(direct.functionResults[0].status, 'reviewed');
    assert.equal(direct.skipped, 1);

    await row(page, 'ben.txt').getByRole('link', { name: 'ben.txt' }).click();
    await page.getByRole('group', { name: 'Criteria of question 1' }).waitFor();
    assert.equal(await totalOf(page), ticked, 'the tick is kept');
    assert.equal(await page.getByRole('group', { name: 'Criteria of question 1' }).getByRole('checkbox', { name: /Explains evaporation/ }).isChecked(), true);

    // Asked to, the AI grades it again and the tick goes.
    await page.getByRole('link', { name: 'Water cycle' }).first().click();
    await page.waitForURL(new RegExp(`/assignment/${id}$`));
    await gradeSelected(page, ['ben.txt']);
    const again = page.getByRole('dialog', { name: 'You reviewed this submission' });
    await again.getByRole('button', { name: 'Grade it again too' }).click();
    await toast(page, 'Grading submissions! This should take 1-2 minutes.');
    await row(page, 'ben.txt').getByText('Graded', { exact: true }).waitFor({ timeout: GRADE_TIMEOUT });
    assert.equal(await pointsOf(page, 'ben.txt'), aiPoints, "the AI's grade is back");
  } finally {
    await ctx.close();
  }
});

test('an adjustment past the question\'s maximum is capped, and the review screen says why', async () => {
  const ctx = await browser.newContext({ viewport: DESKTOP });
  const page = await ctx.newPage();
  try {
    await signInByAPI(page, 'Adam Adjuster', 'adam.adjuster@school.test');
    const { assignment } = await ok(page, '/api/v1/db/assignment/put', { name: 'Rivers', type: 'grade', isHandWritten: false });
    const id = assignment._id;
    await ok(page, '/api/v1/db/function/put', {
      assignmentId: id,
      questions: [
        {
          questionText: 'What shapes a valley?',
          context: '',
          rubricId: null,
          criteria: [
            { description: 'Names erosion by the river', points: 4 },
            { description: 'Mentions ice in glaciers', points: 2 },
          ],
          subquestions: [],
        },
      ],
    });
    const [sub] = await upload(page, id, { 'cai.txt': 'Erosion by the river cuts the valley over time.' });
    await page.goto(`${baseURL}/assignment/${id}`);
    await row(page, 'cai.txt').getByText('Ready', { exact: true }).waitFor({ timeout: GRADE_TIMEOUT });
    await page.getByRole('button', { name: 'Grade all' }).click();
    await row(page, 'cai.txt').getByText('Graded', { exact: true }).waitFor({ timeout: GRADE_TIMEOUT });
    await row(page, 'cai.txt').getByRole('link', { name: 'cai.txt' }).click();
    await page.waitForURL(new RegExp(`/submission/${sub._id}$`));

    const card = page.getByRole('region', { name: 'Question 1' });
    await card.waitFor();
    const score = await card.getByLabel(/ of 6 points$/).getAttribute('aria-label');
    const points = Number(score.match(/^([\d.]+)/)[1]);
    const field = card.getByRole('spinbutton', { name: 'Grade adjustment for question 1' });
    await field.fill('10');
    await field.press('Enter');
    const most = 6 - points;
    await card.getByText(`Capped at +${most}: question 1 is worth 6 points, and an adjustment cannot take it past that.`).waitFor();
    assert.equal(await field.inputValue(), String(most));
    await card.getByLabel('6 of 6 points').waitFor();
    await page.getByText('Reviewed', { exact: true }).first().waitFor();
    await page.getByText('Saved', { exact: true }).waitFor();
    await page.waitForTimeout(500); // the chips' colour transitions
    await page.screenshot({ path: `${process.env.E2E_OUTPUT}/review-protection-capped-1280.png` });

    // Kept after a reload, as saved: never 8 / 6.
    await page.reload();
    await card.waitFor();
    await card.getByLabel('6 of 6 points').waitFor();
    assert.equal(await page.getByRole('region', { name: 'Question 1' }).getByRole('spinbutton', { name: 'Grade adjustment for question 1' }).inputValue(), String(most));
    assert.equal(await totalOf(page), 6);

    // Feedback typed and left at once, by the browser's Back: saved all the same (no blur, no wait).
    const feedback = page.getByRole('region', { name: 'Question 1' }).getByRole('textbox', { name: 'Feedback for question 1' });
    await feedback.click();
    await feedback.press('Control+End');
    await page.keyboard.type(' Glaciers widen valleys too.');
    await page.goBack();
    await page.waitForURL(new RegExp(`/assignment/${id}$`));
    await row(page, 'cai.txt').getByRole('link', { name: 'cai.txt' }).click();
    await page.waitForURL(new RegExp(`/submission/${sub._id}$`));
    const kept = page.getByRole('region', { name: 'Question 1' }).getByRole('textbox', { name: 'Feedback for question 1' });
    await kept.waitFor();
    assert.match(await kept.inputValue(), /Glaciers widen valleys too\.$/);
  } finally {
    await ctx.close();
  }
});
