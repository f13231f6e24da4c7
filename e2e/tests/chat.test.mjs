// Assistants, chat and the tools catalogue in a real browser against the real
// stack (API, worker, the demo model streaming its answers): a teacher builds
// an assistant with a PDF, saves it for the team, chats with it and watches
// the answer stream in, gets a document and a second version, steps back,
// downloads it as Word, saves the chat and reopens it after a reload; then
// runs a tool, a workflow and the rubric tool.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { baseURL, DESKTOP, launch, outDir, shotBoth, signInByAPI, toast } from '../browser.mjs';

const fixtures = join(import.meta.dirname, '..', '..', 'internal', 'extract', 'testdata');

/** How long the demo model may take to stream one answer on this loaded machine. */
const ANSWER_TIMEOUT = 60_000;

let browser;
let ctx;
let page;
before(async () => {
  browser = await launch();
  ctx = await browser.newContext({ viewport: DESKTOP, acceptDownloads: true });
  page = await ctx.newPage();
  await signInByAPI(page, 'Cleo Chat', 'cleo.chat@school.test');
});
after(async () => {
  await browser?.close();
});

const documentPane = () => page.getByRole('region', { name: 'Document' });

/** send types a message in the chat's composer and sends it with Enter. */
async function send(text) {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
}

/** waitForAnswer waits until the streamed answer has finished (the composer's Send is back). */
async function waitForAnswer() {
  await page.getByRole('button', { name: 'Stop' }).waitFor({ state: 'detached', timeout: ANSWER_TIMEOUT });
}

/** downloadWord presses "Download Word" and checks the file is a .docx named downloaded.docx. */
async function downloadWord(name) {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    documentPane().getByRole('button', { name: 'Download Word' }).click(),
  ]);
  assert.equal(download.suggestedFilename(), 'downloaded.docx');
  const path = join(outDir, `${name}.docx`);
  await download.saveAs(path);
  const bytes = await readFile(path);
  assert.equal(bytes.subarray(0, 2).toString(), 'PK', 'a .docx is a zip archive');
  assert.ok(bytes.includes(Buffer.from('word/document.xml')), 'the archive holds word/document.xml');
}

test('assistants: create one with a PDF, save it for the team and unsave it', async () => {
  await page.goto(`${baseURL}/assistants`);
  await page.getByRole('link', { name: 'New assistant' }).first().click();
  await page.waitForURL(/\/assistants\/new$/);

  // Saving an empty form is refused and sends nothing.
  await page.getByRole('button', { name: 'Save' }).click();
  await toast(page, 'Please fill in all required fields');
  assert.equal(page.url(), `${baseURL}/assistants/new`);

  await page.getByRole('textbox', { name: 'Title' }).fill('Water cycle planner');
  await page.getByRole('textbox', { name: 'Description' }).fill('Plans science lessons on the water cycle from our unit notes.');
  await page.getByRole('textbox', { name: 'System prompt' }).fill('You help a Year 7 science teacher plan lessons. Use the attached unit notes.');
  await page.getByRole('textbox', { name: 'Initial message (optional)' }).fill('Hello! Which lesson shall we plan?');
  await page.getByLabel('Choose PDFs to attach').setInputFiles(join(fixtures, 'text-3pages.pdf'));
  await page.getByRole('list', { name: 'Attached PDFs' }).getByText('text-3pages.pdf').waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Save' }).click();
  await page.waitForURL(/\/assistants$/);
  await toast(page, 'Assistant saved successfully');

  const card = page.getByRole('article').filter({ hasText: 'Water cycle planner' });
  await card.getByText('Yours').waitFor();
  await page.getByRole('button', { name: 'Save Water cycle planner for the team' }).click();
  await toast(page, 'Assistant saved successfully');
  await card.getByText('Saved for team').waitFor();
  await shotBoth(page, 'assistants-page');

  await page.getByRole('button', { name: 'Unsave Water cycle planner for the team' }).click();
  await toast(page, 'Assistant unsaved successfully');
  await card.getByText('Saved for team').waitFor({ state: 'detached' });

  // The PDF's text was kept with the assistant.
  const list = await page.evaluate(async () => {
    const { csrfToken } = await (await fetch('/api/auth/csrf')).json();
    const res = await fetch('/api/v1/db/assistant/list', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrfToken }, body: '{}' });
    return (await res.json()).data.assistants;
  });
  const made = list.find((a) => a.title === 'Water cycle planner');
  assert.equal(made.fileData.length, 1);
  assert.match(made.fileData[0].fileText, /Water Cycle/);
});

test('chat: the answer streams in, a document gets a second version, steps back, downloads, saves and reopens', async () => {
  await page.goto(`${baseURL}/assistants`);
  await page.getByRole('link', { name: 'Chat with Water cycle planner' }).click();
  await page.waitForURL(/\/assistants\/[0-9a-f-]{36}\/chat$/);
  await page.getByRole('heading', { level: 1, name: 'Water cycle planner' }).waitFor();
  await page.getByText('Hello! Which lesson shall we plan?').waitFor();

  await send('Please write a lesson plan about the water cycle for Year 7.');
  // The answer arrives in pieces: the Stop button shows while part of it is on screen.
  const writing = page.getByLabel('Answer in progress');
  await page.getByRole('button', { name: 'Stop' }).waitFor();
  await writing.getByText(/\S/).first().waitFor({ timeout: ANSWER_TIMEOUT });
  const partial = (await writing.innerText()).length;
  await waitForAnswer();
  await documentPane().getByText('Version 1 of 1').waitFor();
  const first = await documentPane().getByRole('document', { name: 'Current document' }).innerText();
  assert.ok(first.length > partial, 'the document grew after the first pieces arrived');

  await send('Make it shorter, please.');
  await waitForAnswer();
  await documentPane().getByText('Version 2 of 2').waitFor();
  await shotBoth(page, 'chat-with-document');

  await documentPane().getByRole('button', { name: 'Previous version' }).click();
  await documentPane().getByText('Version 1 of 2').waitFor();
  assert.equal(await documentPane().getByRole('document', { name: 'Earlier version' }).innerText(), first);
  await documentPane().getByRole('button', { name: 'Next version' }).click();
  await documentPane().getByText('Version 2 of 2').waitFor();
  await downloadWord('chat-document');

  await page.getByRole('button', { name: 'Save chat' }).click();
  await page.waitForURL(/\/chat\/[0-9a-f-]{36}$/);
  const chatURL = page.url();
  await page.getByText('Saved', { exact: true }).waitFor();

  await page.reload();
  await documentPane().getByText('Version 2 of 2').waitFor();
  await page.getByRole('list', { name: 'Messages' }).getByText('Make it shorter, please.').waitFor();

  // A new chat, then the saved one reopened from the list of previous chats.
  await page.goto(`${baseURL}/chat`);
  await page.getByRole('button', { name: 'Previous chats' }).click();
  await page.getByRole('list', { name: 'Saved chats' }).getByText(/Please write a lesson plan about the water cycle/).click();
  await page.waitForURL(chatURL);
  await documentPane().getByText('Version 2 of 2').waitFor();
  await documentPane().getByRole('button', { name: 'Previous version' }).click();
  await documentPane().getByText('Version 1 of 2').waitFor();
});

test('tools: a tool chat and a workflow each end in a downloaded document; the rubric tool fills the library', async () => {
  await page.goto(`${baseURL}/tools`);
  await page.getByRole('heading', { level: 1, name: 'Tools' }).waitFor();
  await shotBoth(page, 'tools-page');

  await page.getByRole('link', { name: 'Start Parent letter' }).click();
  await page.waitForURL(/\/tools\/parent-letter\/chat$/);
  await send('Write a letter to parents about next week\'s museum trip.');
  await waitForAnswer();
  await documentPane().getByText('Version 1 of 1').waitFor();
  await downloadWord('tool-document');

  await page.goto(`${baseURL}/tools`);
  await page.getByRole('link', { name: 'Start Plan a lesson' }).click();
  await page.waitForURL(/\/workflows\/lesson-plan$/);
  await page.getByRole('button', { name: 'Create document' }).click();
  await toast(page, 'Please fill in all required fields');
  await page.getByRole('textbox', { name: 'Subject' }).fill('Science');
  await page.getByRole('textbox', { name: 'Grade level' }).fill('Year 7');
  await page.getByRole('textbox', { name: 'Topic' }).fill('How clouds form');
  await page.getByRole('combobox', { name: 'Lesson length' }).selectOption({ index: 1 });
  await shotBoth(page, 'workflow-form');
  await page.getByRole('button', { name: 'Create document' }).click();
  await waitForAnswer();
  await documentPane().getByText('Version 1 of 1').waitFor();
  await page.getByRole('list', { name: 'Messages' }).getByText(/How clouds form/).first().waitFor();
  await shotBoth(page, 'workflow-result');
  await downloadWord('workflow-document');

  await page.goto(`${baseURL}/tools`);
  await page.getByRole('button', { name: 'Start Rubric from an assignment sheet' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Assignment sheet' }).fill(
    'Persuasive essay\n\nArgument: take a clear position on school uniforms.\nEvidence: support it with at least two sources.\nOrganisation: use paragraphs with topic sentences.',
  );
  await dialog.getByRole('button', { name: 'Create rubric' }).click();
  await page.waitForURL(/\/rubrics\/[0-9a-f-]{36}$/, { timeout: ANSWER_TIMEOUT });
  await toast(page, 'Rubric saved to your library');
});
