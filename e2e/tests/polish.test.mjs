// Smaller things a teacher noticed (issue 19, items 5 and 6), each in a real
// browser against the real stack: a folder uploaded again adds no second row,
// a file that could not be uploaded stays as a failed row, the rubric editor
// starts empty with placeholders, and the words on several screens.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { apiCall, baseURL, DESKTOP, launch, pickFiles, shotBoth, signInByAPI, toast } from '../browser.mjs';

/** How long a file may take to be read on this loaded machine. */
const READ_TIMEOUT = 60_000;

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function teacher(name, email, { viewport = DESKTOP } = {}) {
  const ctx = await browser.newContext({ viewport });
  const page = await ctx.newPage();
  await signInByAPI(page, name, email);
  return { ctx, page };
}

/** ok runs an API call from the page and fails the test unless it answers 200. */
async function ok(page, path, body) {
  const res = await apiCall(page, 'POST', path, body);
  assert.equal(res.status, 200, `${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** createGrade makes a grade assignment through the API; questions may carry subquestions. */
async function createGrade(page, name, questions) {
  const { assignment } = await ok(page, '/api/v1/db/assignment/put', { name, type: 'grade', isHandWritten: false, provideInstantFeedback: false });
  const q = (questionText, subquestions = []) => ({
    questionText,
    context: '',
    rubricId: null,
    criteria: [{ description: `Answers: ${questionText}`, points: 2 }],
    subquestions: subquestions.map((s) => q(s)),
  });
  await ok(page, '/api/v1/db/function/put', {
    assignmentId: assignment._id,
    questions: questions.map((x) => (typeof x === 'string' ? q(x) : q(x.text, x.subquestions))),
  });
  return assignment._id;
}

/** The rows of the submissions table. */
const rows = (page) => page.getByRole('table', { name: 'Submissions' }).getByRole('row');

/** The row of the submissions table whose name cell is `name`. */
function submissionRow(page, name) {
  return rows(page).filter({ has: page.getByRole('rowheader', { name, exact: false }) });
}

const textFile = (name, text) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });

test('a folder uploaded again adds no second row; a file that did not upload stays as a failed row', async () => {
  const { ctx, page } = await teacher('Ula Upload', 'ula.upload@school.test');
  try {
    const id = await createGrade(page, 'Water cycle', ['Explain evaporation.']);
    await page.goto(`${baseURL}/assignment/${id}`);
    const upload = page.getByRole('button', { name: 'Upload files' });
    const ana = textFile('ana.txt', 'Evaporation is water turning into vapour when the sun heats it.');
    const ben = textFile('ben.txt', 'Water goes up as vapour and comes down as rain.');
    const empty = textFile('maya.txt', '');

    // The first upload: two essays and an empty file, which the store refuses.
    await pickFiles(page, upload, [ana, ben, empty]);
    await toast(page, 'Uploaded 2 files; 1 failed.');
    const progress = page.getByRole('region', { name: 'Upload progress' });
    await progress.getByText('Failed: This file is empty.').waitFor();
    for (const name of ['ana.txt', 'ben.txt']) {
      await submissionRow(page, name).getByText('Ready', { exact: true }).waitFor({ timeout: READ_TIMEOUT });
    }
    await progress.getByRole('button', { name: 'Dismiss' }).click();
    await progress.waitFor({ state: 'detached' });
    // The empty file is still there, failed, with its reason, so Maya is not forgotten.
    const maya = submissionRow(page, 'maya.txt');
    await maya.getByText('Failed', { exact: true }).waitFor();
    await maya.getByText('This file is empty.').waitFor();
    assert.equal(await rows(page).count(), 1 + 3, 'a header and three rows');

    // The whole folder again (after an interrupted upload, say): Ana and Ben are skipped.
    const carl = textFile('carl.txt', 'The sun heats the sea and the water evaporates.');
    await page.reload();
    await submissionRow(page, 'ana.txt').waitFor();
    await pickFiles(page, upload, [ana, ben, carl]);
    const note = page.getByRole('alert').filter({ hasText: 'Already uploaded' });
    await note.waitFor();
    assert.match(await note.innerText(), /Already uploaded: ana\.txt, ben\.txt\. They were skipped\./);
    await toast(page, 'Uploaded 1 file. Reading it now…');
    await submissionRow(page, 'carl.txt').getByText('Ready', { exact: true }).waitFor({ timeout: READ_TIMEOUT });
    assert.equal(await submissionRow(page, 'ana.txt').count(), 1, 'no second row for ana.txt');
    assert.equal(await submissionRow(page, 'ben.txt').count(), 1, 'no second row for ben.txt');
    assert.equal(await rows(page).count(), 1 + 4);
    await shotBoth(page, 'polish-already-uploaded');

    // The teacher can add them anyway.
    await note.getByRole('button', { name: 'Add them anyway' }).click();
    await toast(page, 'Uploaded 2 files. Reading them now…');
    await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Submissions"] tbody tr').length === 6);
    assert.equal(await submissionRow(page, 'ana.txt').count(), 2);

    // The failed row goes when the teacher deletes it.
    await page.getByRole('button', { name: 'Actions for maya.txt' }).click();
    await page.getByRole('menuitem', { name: /Delete/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: /Delete/ }).click();
    await maya.waitFor({ state: 'detached' });
  } finally {
    await ctx.close();
  }
});

test("a student's grade result is a read-only page of its own: points per criterion and feedback, no teacher controls", async () => {
  const { ctx, page } = await teacher('Tess Teacher', 'tess.teacher@school.test');
  const sctx = await browser.newContext({ viewport: DESKTOP });
  try {
    const { assignment } = await ok(page, '/api/v1/db/assignment/put', {
      name: 'Water cycle quiz',
      type: 'grade',
      isHandWritten: false,
      provideInstantFeedback: true,
    });
    await ok(page, '/api/v1/db/function/put', {
      assignmentId: assignment._id,
      questions: [
        {
          questionText: 'Explain evaporation.',
          context: '',
          rubricId: null,
          criteria: [
            { description: 'Says the sun heats the water', points: 2 },
            { description: 'Names water vapour', points: 1 },
          ],
          subquestions: [],
        },
      ],
    });
    const link = await ok(page, '/api/v1/db/assignment/student-link/get', { assignmentId: assignment._id });

    const sp = await sctx.newPage();
    await sp.goto(`${baseURL}/submit/${link.token}`);
    await sp.getByRole('textbox', { name: 'Your name' }).fill('Sam Student');
    await sp.getByRole('textbox', { name: 'Your email' }).fill('sam.student@pupils.test');
    await pickFiles(sp, sp.getByRole('button', { name: 'Choose a file' }), textFile('sam.txt', 'Evaporation: the sun heats the sea and the water becomes water vapour.'));
    await sp.getByRole('button', { name: 'Submit' }).click();
    await sp.getByRole('heading', { name: 'Your feedback', level: 2 }).waitFor({ timeout: READ_TIMEOUT });
    const feedback = sp.getByRole('region', { name: 'Your feedback' });
    await feedback.getByText('Your score').waitFor();
    const points = feedback.getByRole('list', { name: 'Points for question 1' });
    assert.equal(await points.getByRole('listitem').count(), 2, 'one line per criterion');
    assert.match(await points.innerText(), /Says the sun heats the water/);
    assert.equal(await feedback.getByRole('checkbox').count(), 0, 'no checkboxes');
    assert.equal(await feedback.getByRole('textbox').count(), 0, 'no adjustment or feedback boxes');
    assert.equal(await feedback.getByText('Adjustment').count(), 0);
    await shotBoth(sp, 'polish-student-result');
  } finally {
    await sctx.close();
    await ctx.close();
  }
});

test('on a phone, a long file name wraps between its words onto at most three lines, with the whole name as its title, and the bar and demo banner are compact', async () => {
  const { ctx, page } = await teacher('Pia Phone', 'pia.phone@school.test', { viewport: { width: 390, height: 844 } });
  try {
    const id = await createGrade(page, 'Rivers', ['Explain a meander.']);
    await page.goto(`${baseURL}/assignment/${id}`);
    const name = 'Maya_Lopez_Geography_Homework_Rivers_final_version.txt';
    await pickFiles(page, page.getByRole('button', { name: 'Upload files' }), textFile(name, 'A meander is a bend in a river.'));
    await toast(page, 'Uploaded 1 file. Reading it now…');
    const link = page.getByRole('rowheader', { name }).getByRole('link');
    await link.waitFor();
    assert.equal(await link.getAttribute('title'), name, 'the whole name is the title');
    // Where each line starts: the character before a new line must be one that joins words.
    const laid = await link.evaluate((el) => {
      const text = el.textContent;
      const range = document.createRange();
      const tops = [];
      let node;
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      while ((node = walker.nextNode())) {
        for (let i = 0; i < node.length; i++) {
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const r = range.getClientRects()[0];
          tops.push(r ? Math.round(r.top) : null);
        }
      }
      const breaksAfter = [];
      for (let i = 1; i < tops.length; i++) if (tops[i] !== null && tops[i - 1] !== null && tops[i] > tops[i - 1]) breaksAfter.push(text[i - 1]);
      const lines = Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight));
      return { breaksAfter, lines, text };
    });
    assert.equal(laid.text, name, 'the whole name is in the link');
    assert.ok(laid.lines >= 2 && laid.lines <= 3, `wrapped onto ${laid.lines} lines`);
    for (const c of laid.breaksAfter) assert.ok('_-. '.includes(c), `a line breaks after "${c}", inside a word`);

    // The bar and the demo banner: compact, and they scroll away instead of covering the page.
    const bar = await page.locator('header').first().evaluate((el) => ({ height: el.getBoundingClientRect().height, position: getComputedStyle(el).position }));
    assert.ok(bar.height <= 120, `the bar and banner take ${bar.height}px of 844`);
    assert.equal(bar.position, 'static', 'the bar does not stay over the page on a phone');
    await page.getByText('Demo mode: AI results are simulated.').waitFor();
    await shotBoth(page, 'polish-phone-names');
  } finally {
    await ctx.close();
  }
});
