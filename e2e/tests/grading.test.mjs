// AI grading in a real browser against the real stack (API, worker, the demo
// model): for each of the four assignment types a teacher grades a batch,
// watches the statuses reach their final state, opens a result, edits it and
// finds the edit kept after a reload; a student with instant feedback sees
// their graded result; "Check agreement" reports on three benchmarks.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { apiCall, baseURL, DESKTOP, fullShot, launch, PHONE, pickFiles, shotBoth, signInByAPI, toast, apiOK as ok, uploadTexts as upload, submissionRow as row } from '../browser.mjs';

/** How long a batch may take to be read and graded on this loaded machine. */
const GRADE_TIMEOUT = 90_000;

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function teacher(name, email) {
  const ctx = await browser.newContext({ viewport: DESKTOP });
  const page = await ctx.newPage();
  await signInByAPI(page, name, email);
  return { ctx, page };
}

/** createAssignment makes an assignment of `type` with its definition through the API. */
async function createAssignment(page, name, type, fn, { instant = false } = {}) {
  const { assignment } = await ok(page, '/api/v1/db/assignment/put', { name, type, isHandWritten: false, provideInstantFeedback: instant });
  await ok(page, '/api/v1/db/function/put', { assignmentId: assignment._id, ...fn });
  return assignment._id;
}

/**
 * gradeAll waits for every file to be read, presses the grade button and waits until every
 * row's result chip says `done`.
 */
async function gradeAll(page, assignmentId, names, { verb = 'Grade', done = 'Graded' } = {}) {
  await page.goto(`${baseURL}/assignment/${assignmentId}`);
  for (const n of names) await row(page, n).getByText('Ready', { exact: true }).waitFor({ timeout: GRADE_TIMEOUT });
  await page.getByRole('button', { name: `${verb} all` }).click();
  await toast(page, 'Grading submissions! This should take 1-2 minutes.');
  for (const n of names) await row(page, n).getByText(done, { exact: true }).waitFor({ timeout: GRADE_TIMEOUT });
}

/** openReview opens a submission's review screen from its row. */
async function openReview(page, assignmentId, name) {
  await row(page, name).getByRole('link', { name }).click();
  await page.waitForURL(new RegExp(`/assignment/${assignmentId}/submission/[0-9a-f-]{36}$`));
}

const totalOf = async (page) => {
  const label = await page.getByLabel(/^Total .* points$/).first().getAttribute('aria-label');
  return Number(label.match(/^Total ([\d.]+)/)[1]);
};

test('grade: grade all, toggle a criterion with the keyboard, the total follows and is kept', async () => {
  const { ctx, page } = await teacher('Greta Grader', 'greta.grader@school.test');
  try {
    const id = await createAssignment(page, 'Plants', 'grade', {
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
        {
          questionText: 'Why do leaves look green?',
          context: '',
          rubricId: null,
          criteria: [{ description: 'Explains chlorophyll reflects green light', points: 2 }],
          subquestions: [],
        },
      ],
    });
    const names = ['ana.txt', 'ben.txt', 'cy.txt'];
    await upload(page, id, {
      'ana.txt': 'Plants use sunlight for photosynthesis, taking in carbon dioxide and water. Chlorophyll reflects green light.',
      'ben.txt': 'Plants eat soil. Leaves are green because they are.',
      'cy.txt': 'Photosynthesis needs sunlight. Chlorophyll reflects green light so leaves look green.',
    });
    await gradeAll(page, id, names);
    await shotBoth(page, 'grading-table');

    await openReview(page, id, 'ben.txt');
    await page.getByRole('group', { name: 'Criteria of question 1' }).waitFor();
    const before = await totalOf(page);
    const first = page.getByRole('group', { name: 'Criteria of question 1' }).getByRole('checkbox').first();
    const wasOn = await first.isChecked();
    // The teacher picks the answer (a click on its question), then presses 1 for its first criterion.
    await page.getByRole('heading', { name: 'Question 1', exact: true }).click();
    await page.keyboard.press('1');
    await page.waitForFunction((on) => {
      const box = document.querySelector('[aria-label="Criteria of question 1"] input[type=checkbox]');
      return box && box.checked !== on;
    }, wasOn);
    const after = await totalOf(page);
    assert.equal(after - before, wasOn ? -2 : 2, 'the total moves by the criterion\'s 2 points');
    await shotBoth(page, 'grading-review-grade');

    // A tick on its way makes the browser ask before a reload: the teacher waits for "Saved".
    await page.getByText('Saved', { exact: true }).waitFor();
    await page.reload();
    await page.getByRole('group', { name: 'Criteria of question 1' }).waitFor();
    assert.equal(await totalOf(page), after, 'the toggle was saved');
    assert.equal(await first.isChecked(), !wasOn);

    await page.getByRole('switch', { name: 'Benchmark' }).click();
    await toast(page, 'Submission set as benchmark.');

    // j opens the next submission and k comes back; Back then returns to the class, not through
    // every submission seen.
    const here = page.url();
    await page.keyboard.press('j');
    await page.waitForURL((u) => u.href !== here);
    await page.getByRole('heading', { level: 1, name: 'ben.txt' }).waitFor({ state: 'detached' });
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.keyboard.press('k');
    await page.waitForURL(here);
    await page.goBack();
    await page.waitForURL(new RegExp(`/assignment/${id}$`));
  } finally {
    await ctx.close();
  }
});

test('feedback: annotate all, the doubled word is highlighted, an edited comment is kept', async () => {
  const { ctx, page } = await teacher('Fenna Feedback', 'fenna.feedback@school.test');
  try {
    const id = await createAssignment(page, 'Holiday story', 'feedback', {
      highlights: [{ key: 'grammar', color: 'purple-500', title: 'Grammar', description: 'This highlighter should point out any grammar mistakes.' }],
      context: 'A short story about a holiday.',
    });
    await upload(page, id, { 'story.txt': 'We went to the the beach and i swam in the sea. It was <b>great</b> fun.' });
    await gradeAll(page, id, ['story.txt'], { verb: 'Annotate', done: 'Annotated' });
    await openReview(page, id, 'story.txt');

    const highlight = page.getByRole('button', { name: /^Grammar: / }).first();
    await highlight.waitFor();
    await page.getByText('<b>great</b>', { exact: false }).first().waitFor(); // the student's markup is text
    await shotBoth(page, 'grading-review-feedback');
    // Keyboard focus opens the comment, Escape closes it.
    await highlight.focus();
    await page.getByText('The word “the” is written twice', { exact: false }).last().waitFor();
    await fullShot(page, 'grading-review-feedback-popover-1280');
    await page.keyboard.press('Escape');
    // On a phone the open comment stays on the screen.
    await page.setViewportSize(PHONE);
    await highlight.evaluate((el) => el.blur());
    await highlight.focus();
    // the comment shows twice: in the list and in the open popover
    await page.waitForFunction(() => document.body.innerText.split('The word “the” is written twice').length - 1 >= 2);
    const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(over <= 0, `an open comment on a phone: ${over}px wider than the screen`);
    await fullShot(page, 'grading-review-feedback-popover-390');
    await page.keyboard.press('Escape');
    await page.setViewportSize(DESKTOP);

    const list = page.getByRole('list', { name: 'Feedback items' });
    await list.getByRole('button', { name: /^Edit comment on/ }).first().click();
    await page.getByRole('textbox', { name: 'Grammar comment' }).fill('Say "the" once.');
    await page.getByRole('button', { name: 'Save comment' }).click();
    await toast(page, 'Feedback updated successfully');
    await page.reload();
    await page.getByRole('button', { name: 'Grammar: Say "the" once.' }).waitFor();

    // The teacher adds a highlight the AI did not make: selects "in the sea" in the text, highlights it.
    await page.evaluate(() => {
      const region = document.querySelector('[role="region"][aria-label="Submission with highlights"]');
      const walker = document.createTreeWalker(region, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.data.indexOf('in the sea');
        if (at < 0) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + 'in the sea'.length);
        document.getSelection().removeAllRanges();
        document.getSelection().addRange(range);
        return;
      }
      throw new Error('"in the sea" is not in the text');
    });
    await page.getByRole('button', { name: 'Highlight these words' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a highlight' });
    assert.equal(await dialog.getByRole('textbox', { name: /Words to highlight/ }).inputValue(), 'in the sea');
    await dialog.getByRole('textbox', { name: 'Comment' }).fill('Which sea?');
    await fullShot(page, 'grading-review-feedback-add-1280');
    await dialog.getByRole('button', { name: 'Add highlight' }).click();
    await toast(page, 'Feedback updated successfully');
    await page.reload();
    const added = page.getByRole('button', { name: 'Grammar: Which sea? — “in the sea”' });
    await added.waitFor();
    // Deleted by mistake, it comes back with Undo, and stays after a reload.
    const saved = () => page.waitForResponse((r) => r.url().endsWith('/functionResult/update') && r.ok());
    const deleted = saved();
    await list.getByRole('button', { name: 'Delete highlight on “in the sea”' }).click();
    await added.waitFor({ state: 'detached' });
    await deleted;
    const undone = saved();
    await page.getByRole('status').filter({ hasText: 'Highlight deleted on “in the sea”.' }).getByRole('button', { name: 'Undo' }).click();
    await added.waitFor();
    await undone;
    await page.reload();
    await added.waitFor();
    await shotBoth(page, 'grading-review-feedback-added');
  } finally {
    await ctx.close();
  }
});

test('rubric-feedback: grade all, change a level, three benchmarks, check agreement', async () => {
  const { ctx, page } = await teacher('Rhea Rubric', 'rhea.rubric@school.test');
  try {
    const { rubric } = await ok(page, '/api/v1/db/rubric/put', {
      name: 'Argument rubric',
      criteria: [
        { criterionDescription: 'Thesis', levelDescriptions: ['Clear thesis stated', 'Thesis implied', 'No thesis'], useRange: false },
        { criterionDescription: 'Evidence', levelDescriptions: ['Several sourced examples', 'One example', 'No evidence'], useRange: false },
      ],
    });
    const id = await createAssignment(page, 'School uniforms', 'rubric-feedback', { rubricId: rubric._id });
    const names = ['a.txt', 'b.txt', 'c.txt'];
    await upload(page, id, {
      'a.txt': 'My thesis is clear: uniforms help. Several sourced examples show that, for example a 2019 study found fewer absences.',
      'b.txt': 'Uniforms are fine I guess.',
      'c.txt': 'I argue uniforms save money. One example is my family.',
    });
    await gradeAll(page, id, names);
    await openReview(page, id, 'b.txt');
    const thesis = page.getByRole('region', { name: 'Thesis' });
    await thesis.waitFor();
    // The teacher moves Thesis to a level the AI did not choose.
    const level = (await thesis.getByRole('radio', { name: /^Level 1/ }).isChecked()) ? /^Level 2/ : /^Level 1/;
    await thesis.getByRole('radio', { name: level }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await toast(page, 'Feedback updated successfully');
    await page.reload();
    await page.getByRole('region', { name: 'Thesis' }).getByRole('radio', { name: level }).waitFor();
    assert.ok(await page.getByRole('region', { name: 'Thesis' }).getByRole('radio', { name: level }).isChecked(), 'the level was saved');
    await shotBoth(page, 'grading-review-rubric');

    // The teacher marks all three as benchmarks and checks the AI against them.
    const { functionResults } = await ok(page, '/api/v1/db/assignment/get', { assignmentId: id });
    for (const fr of functionResults) {
      await ok(page, '/api/v1/db/rubricFeedbackFunctionResult/update', { functionResultId: fr._id, data: { isBenchmark: true } });
    }
    await page.goto(`${baseURL}/assignment/${id}`);
    await page.getByRole('button', { name: 'Check agreement' }).click();
    await page.getByRole('table', { name: 'Agreement per criterion' }).waitFor({ timeout: GRADE_TIMEOUT });
    await page.getByLabel('Overall agreement').waitFor();
    await shotBoth(page, 'grading-agreement');
  } finally {
    await ctx.close();
  }
});

test('prompt: grade all, edit the feedback, it is kept', async () => {
  const { ctx, page } = await teacher('Pia Prompt', 'pia.prompt@school.test');
  try {
    const id = await createAssignment(page, 'Lab reflection', 'prompt', { prompt: 'Give two strengths and one next step.' });
    await upload(page, id, { 'lab.txt': 'We measured the pendulum period ten times and averaged it. Next time we will use a longer string.' });
    await gradeAll(page, id, ['lab.txt']);
    await openReview(page, id, 'lab.txt');
    const field = page.getByRole('textbox', { name: 'Feedback' });
    await field.waitFor();
    // The feedback is edited as formatted text (a rich-text editor), not as a Markdown text area.
    assert.ok((await field.innerText()).length > 20, 'the AI wrote feedback');
    await field.fill('Careful averaging. Next: a longer string.');
    await page.getByRole('button', { name: 'Save feedback' }).click();
    await toast(page, 'Feedback updated successfully');
    await page.reload();
    assert.equal((await page.getByRole('textbox', { name: 'Feedback' }).innerText()).trim(), 'Careful averaging. Next: a longer string.');
    await shotBoth(page, 'grading-review-prompt');
  } finally {
    await ctx.close();
  }
});

test('a student with instant feedback sees their graded result', async () => {
  const { ctx, page } = await teacher('Ines Instant', 'ines.instant@school.test');
  const sctx = await browser.newContext({ viewport: DESKTOP });
  try {
    const id = await createAssignment(page, 'Weekend news', 'prompt', { prompt: 'Praise one thing and suggest one improvement.' }, { instant: true });
    const link = await ok(page, '/api/v1/db/assignment/student-link/get', { assignmentId: id });
    const sp = await sctx.newPage();
    await sp.goto(`${baseURL}/submit/${link.token}`);
    await sp.getByRole('textbox', { name: 'Your name' }).fill('Noor Student');
    await sp.getByRole('textbox', { name: 'Your email' }).fill('noor.student@pupils.test');
    await pickFiles(sp, sp.getByRole('button', { name: 'Choose a file' }), {
      name: 'news.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('On Saturday I visited my grandmother and we baked bread together.'),
    });
    await sp.getByRole('button', { name: 'Submit' }).click();
    await sp.waitForURL(new RegExp(`/student/view-result/${id}/[0-9a-f-]{36}$`));
    await sp.getByRole('heading', { name: 'Feedback' }).waitFor({ timeout: GRADE_TIMEOUT });
    await sp.getByText('demo model', { exact: false }).first().waitFor();
    await fullShot(sp, 'grading-student-result-1280');
    await sp.setViewportSize(PHONE);
    await fullShot(sp, 'grading-student-result-390');
  } finally {
    await sctx.close();
    await ctx.close();
  }
});

