// A teacher's hand edit to a chat document is never lost (issue 19, item 4), the document is
// edited as formatted text under the nonce-only CSP, and an image-only PDF attached to an
// assistant says "Couldn't read PDF" (item 5). Real stack, the demo model streaming its answers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { apiCall, baseURL, checkA11y, DESKTOP, launch, shotBoth, signInByAPI, toast } from '../browser.mjs';

const fixtures = join(import.meta.dirname, '..', '..', 'internal', 'extract', 'testdata');

/** How long the demo model may take to stream one answer on this loaded machine. */
const ANSWER_TIMEOUT = 60_000;

let browser;
let ctx;
let page;
before(async () => {
  browser = await launch();
  ctx = await browser.newContext({ viewport: DESKTOP });
  page = await ctx.newPage();
  await signInByAPI(page, 'Rosa Reyes', 'rosa.reyes@school.test');
});
after(async () => {
  await browser?.close();
});

const documentPane = () => page.getByRole('region', { name: 'Document' });
const editor = () => documentPane().getByRole('textbox', { name: 'Edit the document' });

/** send types a message in the chat's composer, sends it and waits for the whole answer. */
async function send(text) {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
  await page.getByRole('button', { name: 'Stop' }).waitFor({ state: 'detached', timeout: ANSWER_TIMEOUT });
}

test('a hand edit becomes a version of its own ("Your edit"), and the revision starts from it', async () => {
  await page.goto(`${baseURL}/chat`);
  await send('Please write a lesson plan about volcanoes for Year 8.');
  await documentPane().getByText('Version 1 of 1').waitFor();

  // The editor shows the document as formatted text: headings, a list, a table; no Markdown marks.
  await documentPane().getByRole('button', { name: 'Edit' }).click();
  await editor().waitFor();
  const box = editor();
  await box.getByRole('heading', { level: 1 }).waitFor();
  await box.getByRole('table').waitFor();
  assert.ok((await box.getByRole('listitem').count()) >= 3, 'the outline is a list');
  const shown = await box.innerText();
  assert.doesNotMatch(shown, /^#|\| --- \||\*\*/m, 'no raw Markdown in the editor');
  assert.deepEqual(browser.cspViolations, [], 'the editor works under the nonce-only CSP');

  // The teacher types a sentence of their own at the start of the first paragraph, as its own paragraph.
  await box.locator('p').first().click({ position: { x: 2, y: 8 } });
  await page.keyboard.type('Checked by Ms Reyes: bring the eruption kit on Friday.');
  await page.keyboard.press('Enter');
  await box.locator('p').filter({ hasText: /^Checked by Ms Reyes: bring the eruption kit on Friday\.$/ }).waitFor();
  await box.getByRole('heading', { level: 1, name: /^Lesson plan: .*Year 8\.$/ }).waitFor();
  await checkA11y(page, 'chat-document-editor');
  await shotBoth(page, 'chat-document-editor');

  await documentPane().getByRole('button', { name: 'Preview' }).click();
  await documentPane().getByText('Edited draft · 1 earlier version').waitFor();
  await documentPane().getByRole('document', { name: 'Current document' }).getByText('Checked by Ms Reyes').waitFor();

  // The revision is asked with the edited text.
  const [request] = await Promise.all([
    page.waitForRequest((r) => r.url().endsWith('/api/v1/chat/stream') && r.method() === 'POST'),
    send('Make it shorter, please.'),
  ]);
  const asked = request.postDataJSON();
  assert.match(asked.document, /Checked by Ms Reyes: bring the eruption kit on Friday\./, 'the model is given the edited text');

  // The edit did not disappear: it is version 2, "Your edit", between the model's two versions.
  await documentPane().getByText('Version 3 of 3').waitFor();
  await page.getByRole('listitem', { name: 'You' }).nth(1).getByText('Your edit kept as a version').waitFor();
  await documentPane().getByRole('button', { name: 'Versions' }).click();
  const items = await page.getByRole('menuitem').allInnerTexts();
  assert.deepEqual(
    items.map((t) => t.replace(/\s+/g, ' ').trim()),
    ['Version 1', 'Version 2 · Your edit', 'Version 3 Current document'],
  );
  await page.getByRole('menuitem', { name: /Your edit/ }).click();
  await documentPane().getByText('Your edit · version 2 of 3').waitFor();
  const opened = documentPane().getByRole('document', { name: 'Earlier version' });
  await opened.getByText('Checked by Ms Reyes: bring the eruption kit on Friday.').waitFor();
  await shotBoth(page, 'chat-document-your-edit');

  // Saved and opened again, the edit is still a version of its own.
  await page.getByRole('button', { name: 'Save chat' }).click();
  await toast(page, 'Chat saved');
  await page.waitForURL(/\/chat\/[0-9a-f-]{36}$/);
  await page.reload();
  await documentPane().getByText('Version 3 of 3').waitFor();
  await documentPane().getByRole('button', { name: 'Previous version' }).click();
  await documentPane().getByText('Your edit · version 2 of 3').waitFor();

  // "Use this version" brings the edit back to be edited again.
  await documentPane().getByRole('button', { name: 'Use this version' }).click();
  await documentPane().getByText('Your edit · version 2 of 3').waitFor();
  await documentPane().getByRole('button', { name: 'Edit' }).click();
  await editor().getByText('Checked by Ms Reyes').waitFor();
});

test('HTML in a document stays text in the editor: nothing is loaded or run', async () => {
  const doc = '# Trip letter\n\nDear parents,\n\n<img src=x onerror="window.__mwPwned=1">\n\n<script>window.__mwPwned=2</script>';
  const put = await apiCall(page, 'PUT', '/api/v1/db/chat/put', {
    chatState: {
      messages: [
        { role: 'user', content: 'Write a trip letter' },
        { role: 'assistant', content: 'Here it is.' },
      ],
      document: doc,
      pastDocuments: [{ messageIndex: 1, document: doc }],
    },
  });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  const failed = [];
  page.on('requestfailed', (r) => failed.push(r.url()));
  await page.goto(`${baseURL}/chat/${put.body.data.chatDoc._id}`);
  await documentPane().getByRole('button', { name: 'Edit' }).click();
  await editor().getByText('Dear parents').waitFor();
  await editor().getByText('<img src=x onerror="window.__mwPwned=1">').waitFor();
  assert.equal(await editor().locator('img, script').count(), 0, 'no element is built from the HTML');
  assert.equal(await page.evaluate(() => window.__mwPwned), undefined, 'no handler ran');
  assert.deepEqual(failed.filter((u) => u.endsWith('/x')), [], 'no image was requested');
  assert.deepEqual(browser.cspViolations, []);
});

test('an image-only PDF attached to an assistant says "Couldn\'t read PDF" and is not attached', async () => {
  await page.goto(`${baseURL}/assistants/new`);
  await page.getByRole('textbox', { name: 'Title' }).waitFor();
  // scanned.pdf is one scanned page: an image, no text layer.
  await page.getByLabel('Choose PDFs to attach').setInputFiles(join(fixtures, 'scanned.pdf'));
  await toast(page, "Couldn't read PDF");
  assert.equal(await page.getByRole('list', { name: 'Attached PDFs' }).count(), 0, 'nothing attached');
  await page.getByRole('button', { name: 'Attach PDFs' }).waitFor();
  assert.ok(await page.getByRole('button', { name: 'Attach PDFs' }).isEnabled());

  // A PDF with text still attaches.
  await page.getByLabel('Choose PDFs to attach').setInputFiles(join(fixtures, 'text-3pages.pdf'));
  await page.getByRole('list', { name: 'Attached PDFs' }).getByText('text-3pages.pdf').waitFor({ timeout: 30_000 });
});
