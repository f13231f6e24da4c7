// Submissions in a real browser against the real stack (API, worker with its
// extractors and OCR, local blob storage): a teacher uploads five kinds of file
// at once and watches them being read, imports a Google Forms CSV through the
// mapping dialog, hands out the student link (instant feedback on and off),
// and everything another team or another student must not reach is refused.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { apiCall, baseURL, DESKTOP, fullShot, launch, PHONE, pickFiles, shotBoth, signInByAPI, toast } from '../browser.mjs';

/** The extraction fixtures: real files made by real producers (see their README). */
const fixtures = resolve(import.meta.dirname, '..', '..', 'internal', 'extract', 'testdata');
/** How long a file may take to be read (OCR of a page on this loaded machine included). */
const READ_TIMEOUT = 60_000;

let browser;
let tmp;
before(async () => {
  browser = await launch();
  tmp = mkdtempSync(join(tmpdir(), 'markwell-e2e-submissions-'));
});
after(async () => {
  await browser?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

async function teacher(name, email, { viewport = DESKTOP, clipboard = false } = {}) {
  const ctx = await browser.newContext({ viewport });
  if (clipboard) await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  const page = await ctx.newPage();
  await signInByAPI(page, name, email);
  return { ctx, page };
}

/** A browser with no session: a student who opened a link. */
async function student(viewport = DESKTOP) {
  const ctx = await browser.newContext({ viewport });
  const page = await ctx.newPage();
  return { ctx, page };
}

/** ok runs an API call from the page and fails the test unless it answers 200. */
async function ok(page, path, body) {
  const res = await apiCall(page, 'POST', path, body);
  assert.equal(res.status, 200, `${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** createGrade makes a grade assignment with the given top-level questions through the API. */
async function createGrade(page, name, questions, { instant = false, handwritten = false } = {}) {
  const { assignment } = await ok(page, '/api/v1/db/assignment/put', {
    name,
    type: 'grade',
    isHandWritten: handwritten,
    provideInstantFeedback: instant,
  });
  await ok(page, '/api/v1/db/function/put', {
    assignmentId: assignment._id,
    questions: questions.map((questionText) => ({
      questionText,
      context: '',
      rubricId: null,
      criteria: [{ description: 'Answers the question', points: 2 }],
      subquestions: [],
    })),
  });
  return assignment._id;
}

/** The row of the submissions table whose name cell is `name`. */
function submissionRow(page, name) {
  return page
    .getByRole('table', { name: 'Submissions' })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name, exact: false }) })
    .filter({ hasText: name });
}

/** Waits until a row's status chip says Ready and returns the row. */
async function waitReady(page, name) {
  const row = submissionRow(page, name);
  await row.getByText('Ready', { exact: true }).waitFor({ timeout: READ_TIMEOUT });
  return row;
}

/** The link token of an assignment, as the teacher's card shows it. */
async function linkToken(page) {
  const url = await page.getByRole('textbox', { name: 'Student link' }).inputValue();
  const m = url.match(/\/submit\/([^/?#]+)$/);
  assert.ok(m, `a student link: ${url}`);
  return m[1];
}

/**
 * submitAsStudent sends a file through a link by API from a session-less page,
 * as the student page does, and returns {submissionId, viewToken}.
 */
async function submitAsStudent(page, token, assignmentId, fileName, text, who) {
  if (!page.url().startsWith(baseURL)) await page.goto(`${baseURL}/healthz`);
  const up = await ok(page, '/api/v1/s3-pub-upload', {
    fileName,
    fileType: 'text/plain',
    fileSize: new TextEncoder().encode(text).length,
    linkToken: token,
  });
  const put = await page.evaluate(
    async ({ url, text }) => (await fetch(url, { method: 'PUT', headers: { 'Content-Type': 'text/plain' }, body: text })).status,
    { url: up.signedUrl, text },
  );
  assert.ok(put >= 200 && put < 300, `PUT of ${fileName}: ${put}`);
  const data = await ok(page, '/api/v1/db/assignment/update-submissions-from-student', {
    linkToken: token,
    assignmentId,
    submissions: [{ name: fileName, location: up.location || up.key }],
    submissionRole: 'student',
    type: 'grade',
    requiresTextractArray: [true],
    requiresPDFReadArray: [false],
    requiresImageReadArray: [false],
    isHandWritten: false,
    studentName: who,
    studentEmail: `${who.toLowerCase().replace(/\W+/g, '.')}@pupils.test`,
  });
  assert.equal(data.submissions.length, 1, 'the student gets back their submission only');
  assert.ok(data.viewToken, 'a view token');
  return { submissionId: data.submissions[0]._id, viewToken: data.viewToken };
}

test('a teacher uploads five kinds of file at once and watches each being read', async () => {
  const { ctx, page } = await teacher('Uma Upload', 'uma.upload@school.test');
  try {
    const id = await createGrade(page, 'Science portfolio', ['Summarise your work.']);
    const txt = join(tmp, 'reflection.txt');
    writeFileSync(txt, 'My reflection: I learned that evaporation needs energy from the sun.\nNext time I will measure more often.\n');
    const files = [
      join(fixtures, 'text-3pages.pdf'),
      join(fixtures, 'report.docx'),
      join(fixtures, 'slides.pptx'),
      txt,
      join(fixtures, 'printed.png'),
    ];
    // What each row's preview starts with once read.
    const previews = {
      'text-3pages.pdf': 'The Water Cycle',
      'report.docx': 'Lab Report: Plant Growth',
      'slides.pptx': 'Volcanoes',
      'reflection.txt': 'My reflection: I learned that evaporation',
      'printed.png': 'Photosynthesis is the process',
    };

    // Every fetch of the assignment, to check the page polls and then stops.
    const polls = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/v1/db/assignment/get') polls.push(Date.now());
    });

    // The first two uploads go straight through; the others wait at the storage
    // until the in-progress state has been checked and photographed.
    let release;
    const gate = new Promise((r) => (release = r));
    let puts = 0;
    await page.route(
      (u) => u.pathname.startsWith('/files/'),
      async (route) => {
        if (route.request().method() !== 'PUT') return route.continue();
        if (++puts > 2) await gate;
        await route.continue();
      },
    );

    await page.goto(`${baseURL}/assignment/${id}?from=library`);
    await page.getByRole('heading', { name: 'Science portfolio', level: 1 }).waitFor();
    await page.getByText('No submissions yet').waitFor();
    await pickFiles(page, page.getByRole('button', { name: 'Upload files' }), files);

    const progress = page.getByRole('region', { name: 'Upload progress' });
    await progress.getByText('Uploading', { exact: true }).waitFor();
    await progress.getByText('2 of 5 files').waitFor();
    const items = progress.getByRole('list', { name: 'Files' }).getByRole('listitem');
    assert.equal(await items.count(), 5, 'one progress row per file');
    assert.equal(await items.filter({ hasText: 'Uploaded' }).count(), 2);
    assert.equal(await page.getByRole('button', { name: 'Upload files' }).isDisabled(), true, 'no second batch while one uploads');
    await shotBoth(page, 'submissions-uploading');
    release();

    await toast(page, 'Uploaded 5 files. Reading them now…');
    await progress.getByText('Upload complete').waitFor();
    // The "reload" after an upload drops the query string.
    await page.waitForURL(`${baseURL}/assignment/${id}`);
    const savedAt = Date.now();

    for (const [name, preview] of Object.entries(previews)) {
      const row = await waitReady(page, name);
      await row.getByText(preview).waitFor();
    }
    const readyAt = Date.now();
    assert.equal(new URL(page.url()).search, '', 'no query string after the upload');
    await page.getByText('5 submissions', { exact: true }).waitFor();
    await submissionRow(page, 'text-3pages.pdf').getByRole('cell', { name: '3', exact: true }).waitFor();

    // Polling: about one fetch per 2 s while files were being read (not one per
    // row or per component), and none once every row is ready. Proving "none"
    // needs a quiet window longer than two polling intervals.
    const during = polls.filter((t) => t >= savedAt && t <= readyAt).length;
    assert.ok(during <= Math.ceil((readyAt - savedAt) / 2000) + 3, `${during} fetches in ${readyAt - savedAt} ms`);
    const settled = polls.length;
    await page.waitForTimeout(4500);
    assert.equal(polls.length, settled, 'the page stops polling once every submission is ready');

    // The DOCX table was read row by row, its cells in order.
    await page.getByRole('button', { name: 'Actions for report.docx' }).click();
    await page.getByRole('menuitem', { name: 'View text' }).click();
    const dialog = page.getByRole('dialog', { name: 'report.docx' });
    await dialog.getByText(/Sunny window/).waitFor();
    const docx = await dialog.locator('pre').textContent();
    assert.match(docx, /Plant \| Week 1 \| Week 2\nSunny window \| 4 cm \| 9 cm\nDark cupboard \| 2 cm \| 3 cm/);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Dismiss' }).click();
    await progress.waitFor({ state: 'detached' });
    await shotBoth(page, 'submissions-table');
  } finally {
    await ctx.close();
  }
});

test('a Google Forms CSV is imported through the column mapping', async () => {
  const { ctx, page } = await teacher('Cora Csv', 'cora.csv@school.test');
  try {
    const q1 = 'Explain photosynthesis.';
    const q2 = 'Which gas do plants release?';
    const id = await createGrade(page, 'Plant biology quiz', [q1, q2]);
    // As Google Forms exports it: a BOM, CRLF, a timestamp, quoted cells, one answer over three lines.
    const csv =
      '\uFEFFTimestamp,Email Address,Full name,Explain photosynthesis.,Which gas do plants release?\r\n' +
      '2024/03/01 9:14:02 AM GMT,ana.lima@pupils.test,Ana Lima,"Plants use light, water and CO2\nto make glucose.\nThe leaf does the work.",Oxygen\r\n' +
      '2024/03/01 9:15:40 AM GMT,ben.okafor@pupils.test,Ben Okafor,"Light energy makes ""food"" in the chloroplasts.",O2\r\n' +
      '2024/03/01 9:20:11 AM GMT,cy.wu@pupils.test,Cy Wu,Sunlight turns into sugar.,Oxygen gas\r\n';
    const file = join(tmp, 'Plant quiz (Responses) - Form responses 1.csv');
    writeFileSync(file, csv);

    await page.goto(`${baseURL}/assignment/${id}`);
    await page.getByRole('heading', { name: 'Plant biology quiz', level: 1 }).waitFor();
    await pickFiles(page, page.getByRole('button', { name: 'Import CSV' }), [file]);

    const dialog = page.getByRole('dialog', { name: 'Import submissions from CSV' });
    await dialog.waitFor();
    await dialog.getByText(/: 3 rows\./).waitFor();
    // The multi-line answer is one cell, its lines kept.
    await dialog.getByText(/to make glucose\./).first().waitFor();
    const chosen = (label) => dialog.getByLabel(label, { exact: true }).locator('option:checked').textContent();
    assert.equal(await chosen('Student name'), 'Full name');
    assert.equal(await chosen('Student email'), 'Email Address');
    assert.equal(await chosen(q1), q1);
    assert.equal(await chosen(q2), q2);
    await shotBoth(page, 'csv-mapping', { dialog: true });

    await dialog.getByRole('button', { name: 'Import 3 submissions' }).click();
    await toast(page, 'Imported 3 submissions');
    await dialog.waitFor({ state: 'detached' });
    for (const name of ['Ana Lima', 'Ben Okafor', 'Cy Wu']) await waitReady(page, name);
    await submissionRow(page, 'Ana Lima').getByRole('cell').getByText('ana.lima@pupils.test').waitFor();
    await page.getByText('3 submissions', { exact: true }).waitFor();

    // The whole answer, lines and all, is the submission's text under its question.
    await page.getByRole('button', { name: 'Actions for Ana Lima' }).click();
    await page.getByRole('menuitem', { name: 'View text' }).click();
    const text = page.getByRole('dialog', { name: 'Ana Lima' });
    await text.getByText(/Question 1: Explain photosynthesis\./).waitFor();
    const body = await text.locator('pre').textContent();
    assert.match(body, /Plants use light, water and CO2\nto make glucose\.\nThe leaf does the work\./);
    assert.match(body, /Question 2: Which gas do plants release\?\nOxygen/);
    await text.getByRole('button', { name: 'Close' }).click();
  } finally {
    await ctx.close();
  }
});

test('students submit through the link: result page with instant feedback, thank-you page without', async () => {
  const { ctx, page } = await teacher('Lina Link', 'lina.link@school.test', { clipboard: true });
  const students = [];
  try {
    const instantId = await createGrade(page, 'Volcano report', ['Describe how a volcano erupts.'], { instant: true });
    const quietId = await createGrade(page, 'Reading log', ['What did you read this week?']);

    // The teacher copies the link from the card.
    await page.goto(`${baseURL}/assignment/${instantId}`);
    const card = page.getByRole('region', { name: 'Student submission link' });
    await card.getByRole('switch', { name: 'Accept submissions through this link' }).waitFor();
    assert.equal(await card.getByRole('switch', { name: 'Accept submissions through this link' }).isChecked(), true, 'a new link is on');
    assert.equal(await card.getByRole('switch', { name: 'Allow resubmission' }).isChecked(), false, 'each student submits once by default');
    await card.getByRole('button', { name: 'Copy link' }).click();
    await toast(page, 'Link copied');
    const link = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(link, new RegExp(`^${baseURL}/submit/[^/?#]+$`));
    const token = link.split('/').pop();

    // A student with no session opens it.
    const s = await student();
    students.push(s);
    const sp = s.page;
    await sp.goto(link);
    await sp.getByRole('heading', { name: 'Volcano report', level: 1 }).waitFor();
    assert.match(await sp.title(), /Submit: Volcano report/);
    await sp.getByRole('button', { name: 'Submit' }).click();
    await sp.getByText('Enter your name.').waitFor();
    await sp.getByRole('textbox', { name: 'Your name' }).fill('Maya Student');
    await sp.getByRole('textbox', { name: 'Your email' }).fill('maya.student@pupils.test');
    const essay = join(tmp, 'volcano.txt');
    writeFileSync(essay, 'Volcanoes erupt when pressure from rising magma becomes too great for the crust above it.\n');
    await pickFiles(sp, sp.getByRole('button', { name: 'Choose a file' }), [essay]);
    await sp.getByText('volcano.txt').waitFor();
    await shotBoth(sp, 'student-submit');

    // Hold the first read of the result until the reading state has been seen.
    let release;
    const gate = new Promise((r) => (release = r));
    let reads = 0;
    await sp.route('**/api/v1/db/submission/get-view-only', async (route) => {
      if (++reads === 1) await gate;
      await route.continue();
    });
    await sp.getByRole('button', { name: 'Submit' }).click();
    await sp.waitForURL(new RegExp(`/student/view-result/${instantId}/[0-9a-f-]{36}$`));
    const submissionId = sp.url().split('/').pop();
    await sp.getByText('Your work is being read…').waitFor();
    await sp.getByRole('progressbar', { name: 'Reading your work' }).waitFor();
    await fullShot(sp, 'student-reading-1280');
    release();
    // Instant feedback: once read, the work is graded and the page shows the feedback with the text.
    await sp.getByRole('heading', { name: 'Your feedback', level: 2 }).waitFor({ timeout: READ_TIMEOUT });
    await sp.getByText('Volcanoes erupt when pressure from rising magma').first().waitFor();
    await sp.getByText('Submitted by Maya Student').waitFor();
    await sp.getByRole('heading', { name: 'Volcano report', level: 1 }).waitFor();
    assert.ok(
      await sp.evaluate((id) => sessionStorage.getItem(`markwell.viewToken.${id}`), submissionId),
      'the tab keeps the view token',
    );
    await shotBoth(sp, 'student-result');

    // The teacher sees it, with the student's name and email.
    await page.reload();
    const row = await waitReady(page, 'volcano.txt');
    await row.getByRole('cell').getByText('Maya Student').waitFor();
    await row.getByText('maya.student@pupils.test').waitFor();

    // Maya submits again (her email in another case): refused with a sentence, as the link does
    // not allow resubmission …
    await sp.goto(link);
    await sp.getByRole('textbox', { name: 'Your name' }).fill('Maya Student');
    await sp.getByRole('textbox', { name: 'Your email' }).fill('Maya.Student@pupils.test');
    const redo = join(tmp, 'volcano-v2.txt');
    writeFileSync(redo, 'Volcanoes erupt when magma, gas and pressure build up under the crust.\n');
    await pickFiles(sp, sp.getByRole('button', { name: 'Choose a file' }), [redo]);
    await sp.getByRole('button', { name: 'Submit' }).click();
    await toast(sp, 'You have already submitted this assignment. Ask your teacher if you need to submit again.');
    assert.match(sp.url(), /\/submit\/[^/]+$/, 'the student stays on the form');
    // … until the teacher allows it: then it is her attempt 2, with its own result page.
    await card.getByRole('switch', { name: 'Allow resubmission' }).click();
    await toast(page, 'Students can now submit again');
    assert.equal(await card.getByRole('switch', { name: 'Allow resubmission' }).isChecked(), true);
    await sp.getByRole('button', { name: 'Submit' }).click();
    await sp.waitForURL(new RegExp(`/student/view-result/${instantId}/[0-9a-f-]{36}$`));
    assert.notEqual(sp.url().split('/').pop(), submissionId, 'a new submission');
    await sp.getByRole('heading', { name: 'Your feedback', level: 2 }).waitFor({ timeout: READ_TIMEOUT });
    await sp.getByText('Volcanoes erupt when magma, gas and pressure').first().waitFor();
    // The teacher sees both attempts, the second linked to the first.
    await page.reload();
    const second = await waitReady(page, 'volcano-v2.txt');
    await second.getByText('Attempt 2', { exact: false }).waitFor();
    await second.getByRole('link', { name: 'See attempt 1' }).waitFor();
    await (await waitReady(page, 'volcano.txt')).getByText('Attempt 1', { exact: true }).waitFor();
    await shotBoth(page, 'student-attempts');

    // Without instant feedback: the thank-you page, no query string.
    await page.goto(`${baseURL}/assignment/${quietId}`);
    const quietToken = await linkToken(page);
    assert.notEqual(quietToken, token, 'each assignment has its own link');
    const s2 = await student(PHONE);
    students.push(s2);
    const qp = s2.page;
    await qp.goto(`${baseURL}/submit/${quietToken}`);
    await qp.getByRole('heading', { name: 'Reading log', level: 1 }).waitFor();
    await qp.getByRole('textbox', { name: 'Your name' }).fill('Noah Reader');
    await qp.getByRole('textbox', { name: 'Your email' }).fill('noah.reader@pupils.test');
    const log = join(tmp, 'reading-log.txt');
    writeFileSync(log, 'This week I read Holes by Louis Sachar.\n');
    await pickFiles(qp, qp.getByRole('button', { name: 'Choose a file' }), [log]);
    await qp.getByRole('button', { name: 'Submit' }).click();
    await qp.waitForURL(`${baseURL}/submit/${quietToken}/success`);
    assert.equal(new URL(qp.url()).search, '');
    await qp.getByText('Thank you — your work was submitted').waitFor();
    await qp.getByText('Your work for “Reading log” is with your teacher.').waitFor();
    await shotBoth(qp, 'student-success');

    await page.reload();
    await (await waitReady(page, 'reading-log.txt')).getByRole('cell').getByText('Noah Reader').waitFor();
  } finally {
    for (const s of students) await s.ctx.close();
    await ctx.close();
  }
});

test("refusals: another team, another student's token, a link turned off", async () => {
  const ada = await teacher('Ada Owner', 'ada.owner@school.test');
  const ben = await teacher('Ben Outsider', 'ben.outsider@elsewhere.test');
  const s = await student(PHONE);
  try {
    const { page } = ada;
    const id = await createGrade(page, 'Private essay', ['Argue for or against homework.']);
    await page.goto(`${baseURL}/assignment/${id}`);
    const token = await linkToken(page);

    // Two students hand in through the link; each holds only their own view token.
    const first = await submitAsStudent(s.page, token, id, 'first.txt', 'Homework builds habits.', 'Fay First');
    const second = await submitAsStudent(s.page, token, id, 'second.txt', 'Homework steals play time.', 'Sam Second');
    await ok(s.page, '/api/v1/db/submission/get-view-only', { submissionId: first.submissionId, viewToken: first.viewToken });
    const crossed = await apiCall(s.page, 'POST', '/api/v1/db/submission/get-view-only', {
      submissionId: second.submissionId,
      viewToken: first.viewToken,
    });
    assert.equal(crossed.status, 404, "another submission's token reads nothing");
    assert.equal(crossed.body.data, undefined);
    // The result page says so, rather than showing someone else's work.
    await s.page.goto(`${baseURL}/healthz`);
    await s.page.evaluate(({ id, token }) => sessionStorage.setItem(`markwell.viewToken.${id}`, token), {
      id: second.submissionId,
      token: first.viewToken,
    });
    await s.page.goto(`${baseURL}/student/view-result/${id}/${second.submissionId}`);
    await s.page.getByText('This result is not available.').waitFor();
    assert.equal(await s.page.getByText('Homework steals play time.').count(), 0);

    // The owner reads the submission; a teacher of another team gets 404 and a not-found page.
    await ok(page, '/api/v1/db/submission/get', { submissionId: first.submissionId });
    const foreign = await apiCall(ben.page, 'POST', '/api/v1/db/submission/get', { submissionId: first.submissionId });
    assert.equal(foreign.status, 404, `another team: ${JSON.stringify(foreign.body)}`);
    assert.equal(foreign.body.data, undefined);
    const foreignList = await apiCall(ben.page, 'POST', '/api/v1/db/assignment/get', { assignmentId: id });
    assert.equal(foreignList.status, 404);
    await ben.page.goto(`${baseURL}/assignment/${id}`);
    await ben.page.getByRole('heading', { name: 'Assignment not found' }).waitFor();
    assert.equal(await ben.page.getByText('first.txt').count(), 0);

    // The teacher turns the link off: the student page says so and uploads are refused.
    const card = page.getByRole('region', { name: 'Student submission link' });
    // The switch follows the server's answer (it does not flip before), so click, then wait.
    const onOff = card.getByRole('switch', { name: 'Accept submissions through this link' });
    await onOff.click();
    await toast(page, 'Student link turned off');
    assert.equal(await onOff.isChecked(), false);
    await card.getByText('This link is turned off: students cannot submit through it.').waitFor();
    await s.page.goto(`${baseURL}/submit/${token}`);
    await s.page.getByText('This submission link is turned off or does not exist.').waitFor();
    assert.equal(await s.page.getByRole('button', { name: 'Submit' }).count(), 0, 'no form on a link that is off');
    await shotBoth(s.page, 'student-link-off');
    const upload = await apiCall(s.page, 'POST', '/api/v1/s3-pub-upload', {
      fileName: 'late.txt',
      fileType: 'text/plain',
      fileSize: 10,
      linkToken: token,
    });
    assert.equal(upload.status, 404, `upload through a link that is off: ${upload.status}`);
    assert.equal(upload.body.error?.message, 'This submission link is turned off or does not exist.');
    assert.equal(upload.body.signedUrl, undefined);
  } finally {
    await s.ctx.close();
    await ada.ctx.close();
    await ben.ctx.close();
  }
});

test('a teacher draws answer boxes on a handwritten page and every answer is cropped', async () => {
  const { ctx, page } = await teacher('Hana Hand', 'hana.hand@school.test');
  try {
    const id = await createGrade(page, 'Handwritten quiz', ['What is erosion?', 'Name a rock.'], { handwritten: true });
    await page.goto(`${baseURL}/assignment/${id}`);
    const panel = page.getByRole('region', { name: 'Answer boxes' });
    await panel.getByText('Upload a submission first', { exact: false }).waitFor();

    await pickFiles(page, page.getByRole('button', { name: 'Upload files' }), [join(fixtures, 'photo-rotated.jpg')]);
    await waitReady(page, 'photo-rotated.jpg');

    // The first ready submission becomes the sample page; a box per question is drawn on it.
    const img = panel.getByRole('img', { name: /Page 1 of 1 of the sample submission/ });
    await img.waitFor({ timeout: READ_TIMEOUT });
    await img.evaluate((el) => (el.complete ? null : new Promise((ok) => el.addEventListener('load', ok, { once: true }))));
    const drag = async (question, from, to) => {
      await panel.getByRole('button', { name: new RegExp(question) }).click();
      const r = await img.boundingBox();
      await page.mouse.move(r.x + r.width * from[0], r.y + r.height * from[1]);
      await page.mouse.down();
      await page.mouse.move(r.x + r.width * to[0], r.y + r.height * to[1], { steps: 5 });
      await page.mouse.up();
    };
    await drag('What is erosion', [0.1, 0.1], [0.9, 0.4]);
    await drag('Name a rock', [0.1, 0.5], [0.9, 0.8]);
    await shotBoth(page, 'answer-boxes');
    await panel.getByRole('button', { name: 'Save answer boxes' }).click();
    await toast(page, 'Answer boxes saved. Cropping answers…');

    // The crop job gives each answer its picture and the result becomes ready to grade.
    let result;
    const deadline = Date.now() + READ_TIMEOUT;
    while (Date.now() < deadline) {
      const data = await ok(page, '/api/v1/db/assignment/get', { assignmentId: id });
      result = data.functionResults[0];
      if (result?.status === 'ready-to-grade') break;
      await page.waitForTimeout(500);
    }
    assert.equal(result?.status, 'ready-to-grade');
    assert.equal(result.answers.length, 2, 'one answer per question');
    for (const answer of result.answers) {
      assert.ok(answer.answerBoxesCoordinates.width > 0.7, JSON.stringify(answer.answerBoxesCoordinates));
      assert.equal(answer.signedAnswerMedia.length, 1);
      const crop = await page.request.get(answer.signedAnswerMedia[0]);
      assert.equal(crop.status(), 200);
      assert.equal(crop.headers()['content-type'], 'image/jpeg');
    }
  } finally {
    await ctx.close();
  }
});
