// Keyboard only (issue 11, accessibility): a teacher reaches the main actions of the assignment
// page, the review screen and the chat with Tab, Shift+Tab, Enter and Space — never the mouse —
// and every element that takes the focus on the way shows a focus ring.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { apiCall, baseURL, checkA11y, DESKTOP, launch, signInByAPI, toast } from '../browser.mjs';

/** How long a batch may take to be read and graded, or an answer to stream, on this loaded machine. */
const TIMEOUT = 90_000;

let browser;
let ctx;
let page;
before(async () => {
  browser = await launch();
  ctx = await browser.newContext({ viewport: DESKTOP });
  page = await ctx.newPage();
  await signInByAPI(page, 'Kai Keys', 'kai.keys@school.test');
});
after(async () => {
  await browser?.close();
});

async function ok(path, body) {
  const res = await apiCall(page, 'POST', path, body);
  assert.equal(res.status, 200, `${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/**
 * focused describes the element that has the focus: its role-ish tag, its accessible name (the
 * aria-label, else its text) and whether a focus ring shows on it — an outline or a box-shadow on
 * it, or, for a text field, the 2px outline MUI draws around the focused field.
 */
function focused() {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    const shows = (node) => {
      const cs = getComputedStyle(node);
      const outline = cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) > 0;
      return outline || cs.boxShadow !== 'none';
    };
    let ring = shows(el);
    const field = el.closest('.MuiInputBase-root.Mui-focused');
    if (!ring && field) {
      const outline = field.querySelector(':scope > fieldset');
      ring = Boolean(outline) && parseFloat(getComputedStyle(outline).borderTopWidth) >= 2;
    }
    const labelledBy = el.getAttribute('aria-labelledby');
    const name =
      el.getAttribute('aria-label') ||
      (labelledBy && document.getElementById(labelledBy)?.textContent) ||
      (el.labels && el.labels[0]?.textContent) ||
      el.textContent ||
      '';
    return { tag: el.tagName.toLowerCase(), role: el.getAttribute('role'), name: name.trim().replace(/\s+/g, ' '), ring };
  });
}

/**
 * tabTo presses Tab (at most `max` times) until the focused element's name matches `name`,
 * checking every element on the way shows a focus ring, and returns it.
 */
async function tabTo(name, { max = 80, back = false } = {}) {
  const seen = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const f = await focused();
    if (!f) continue;
    seen.push(f.name.slice(0, 40));
    assert.ok(f.ring, `no focus ring on the focused ${f.tag} "${f.name}"`);
    if (name.test(f.name)) return f;
  }
  assert.fail(`${name} not reached with ${back ? 'Shift+' : ''}Tab; focus went through: ${seen.join(' | ')}`);
}

test('assignment page and review screen: grade all, open a result, toggle a criterion, mark a benchmark', async () => {
  const { assignment } = await ok('/api/v1/db/assignment/put', { name: 'Keyboard plants', type: 'grade', isHandWritten: false, provideInstantFeedback: false });
  const id = assignment._id;
  await ok('/api/v1/db/function/put', {
    assignmentId: id,
    questions: [
      {
        questionText: 'How do plants make food?',
        context: '',
        rubricId: null,
        criteria: [{ description: 'Mentions sunlight and photosynthesis', points: 2 }],
        subquestions: [],
      },
    ],
  });
  const text = 'Plants use sunlight for photosynthesis.';
  const up = await ok('/api/v1/s3-upload', {
    fileName: `assignments/${id}/submissions/kim.txt`,
    fileType: 'text/plain',
    fileSize: text.length,
  });
  await page.evaluate(async ({ url, text }) => fetch(url, { method: 'PUT', headers: { 'Content-Type': 'text/plain' }, body: text }), { url: up.signedUrl, text });
  await ok('/api/v1/db/assignment/update-submissions', {
    assignmentId: id,
    submissions: [{ name: 'kim.txt', location: up.fileUrl }],
    submissionRole: 'teacher',
    requiresTextractArray: [true],
    requiresPDFReadArray: [false],
    requiresImageReadArray: [false],
    isHandWritten: false,
  });

  await page.goto(`${baseURL}/assignment/${id}`);
  const row = page.getByRole('table', { name: 'Submissions' }).getByRole('row').filter({ hasText: 'kim.txt' });
  await row.getByText('Ready', { exact: true }).waitFor({ timeout: TIMEOUT });

  await tabTo(/^Grade all$/);
  await page.keyboard.press('Enter');
  await toast(page, 'Grading submissions! This should take 1-2 minutes.');
  await row.getByText('Graded', { exact: true }).waitFor({ timeout: TIMEOUT });

  // The submission's link opens its review screen.
  await page.locator('body').focus();
  await page.evaluate(() => document.activeElement?.blur());
  await tabTo(/^kim\.txt$/);
  await page.keyboard.press('Enter');
  await page.waitForURL(new RegExp(`/assignment/${id}/submission/[0-9a-f-]{36}$`));
  const criteria = page.getByRole('group', { name: 'Criteria of question 1' });
  await criteria.waitFor();
  const box = criteria.getByRole('checkbox').first();
  const wasOn = await box.isChecked();
  await tabTo(/Mentions sunlight/);
  await page.keyboard.press('Space');
  await page.waitForFunction((on) => document.querySelector('[aria-label="Criteria of question 1"] input[type=checkbox]')?.checked !== on, wasOn);

  await tabTo(/^Benchmark$/);
  await page.keyboard.press('Space');
  await toast(page, 'Submission set as benchmark.');
  await checkA11y(page, 'keyboard-review');
});

test('chat: write a message, send it with Enter, save the chat', async () => {
  await page.goto(`${baseURL}/chat`);
  await page.getByRole('textbox', { name: 'Message' }).waitFor();
  await tabTo(/^Message$/);
  await page.keyboard.type('What is a good starter for a lesson on fractions?');
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Stop' }).waitFor({ state: 'detached', timeout: TIMEOUT });
  await page.getByRole('list', { name: 'Messages' }).getByText("Markwell's demo model", { exact: false }).first().waitFor({ timeout: TIMEOUT });
  await tabTo(/^Save chat$/, { back: true });
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/chat\/[0-9a-f-]{36}$/);
  await checkA11y(page, 'keyboard-chat');
});

test('axe on the screens no other test photographs: not found, rubric list, new assistant, new chat', async () => {
  await ok('/api/v1/db/rubric/put', {
    name: 'Keyboard rubric',
    criteria: [{ criterionDescription: 'Clarity', levelDescriptions: ['Clear', 'Unclear'], useRange: false }],
  });
  const screens = [
    ['not-found', '/no/such/page', () => page.getByText(/not found/i).first()],
    ['rubrics-list', '/rubrics', () => page.getByText('Keyboard rubric').first()],
    ['assistant-new', '/assistants/new', () => page.getByRole('textbox', { name: 'Title' })],
    ['chat-new', '/chat', () => page.getByRole('textbox', { name: 'Message' })],
  ];
  for (const [name, path, ready] of screens) {
    await page.goto(`${baseURL}${path}`);
    await ready().waitFor();
    await checkA11y(page, `${name}-1280`);
    await page.setViewportSize({ width: 390, height: 844 });
    await checkA11y(page, `${name}-390`);
    await page.setViewportSize(DESKTOP);
  }
});
