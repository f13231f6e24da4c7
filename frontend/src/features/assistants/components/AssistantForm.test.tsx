import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { TEST_USER } from '../../../testing/handlers';
import { server } from '../../../testing/server';
import { assistant, BLOB_BASE, fakeAssistantBackend } from '../testing/fake-backend';
import { renderAssistantRoutes } from '../testing/render';

function pdf(name: string) {
  return new File(['%PDF-1.4 fake'], name, { type: 'application/pdf' });
}

function file(name: string) {
  return { fileName: name, fileText: `Text of ${name}`, fileType: 'application/pdf' };
}

type User = ReturnType<typeof userEvent.setup>;

/** Puts `text` into the field (a paste: one event rather than a keystroke per letter). */
async function enter(user: User, field: HTMLElement, text: string) {
  await user.click(field);
  await user.paste(text);
}

async function fillRequired(user: User) {
  await enter(user, await screen.findByRole('textbox', { name: 'Title' }), 'Lesson planner');
  await enter(user, screen.getByRole('textbox', { name: 'Description' }), 'Plans lessons.');
  await enter(user, screen.getByRole('textbox', { name: 'System prompt' }), 'You plan lessons.');
}

function attachedNames() {
  const list = screen.queryByRole('list', { name: 'Attached PDFs' });
  return list ? within(list).getAllByRole('listitem').map((item) => item.textContent) : [];
}

describe('assistant form', { timeout: 30_000 }, () => {
  it('marks the missing required fields with a toast and sends nothing', async () => {
    const backend = fakeAssistantBackend();
    const user = userEvent.setup();
    renderAssistantRoutes('/assistants/new');

    await enter(user, await screen.findByRole('textbox', { name: 'Title' }), 'Lesson planner');
    await enter(user, screen.getByRole('textbox', { name: 'System prompt' }), '   ');
    await user.click(screen.getByRole('button', { name: 'Save assistant' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Please fill in all required fields');
    expect(screen.getByRole('textbox', { name: 'Title' })).not.toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('textbox', { name: 'Description' })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('textbox', { name: 'System prompt' })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('textbox', { name: 'Description' })).toHaveFocus();
    expect(backend.paths()).toEqual([]);
  });

  it('explains the system prompt and creates the assistant, then goes to the list with a toast', async () => {
    const backend = fakeAssistantBackend();
    const user = userEvent.setup();
    const { router } = renderAssistantRoutes('/assistants/new');

    const prompt = await screen.findByRole('textbox', { name: 'System prompt' });
    expect(prompt).toHaveAccessibleDescription(/The assistant’s instructions/);
    await fillRequired(user);
    await enter(user, screen.getByRole('textbox', { name: 'Initial message (optional)' }), 'Which year?');
    await user.click(screen.getByRole('button', { name: 'Save assistant' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/assistants'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Assistant saved successfully');
    expect(await screen.findByRole('article', { name: 'Lesson planner' })).toBeInTheDocument();
    expect(backend.calls.find((c) => c.path === 'db/assistant/put')?.body).toEqual({
      title: 'Lesson planner',
      description: 'Plans lessons.',
      systemPrompt: 'You plan lessons.',
      initialMessage: 'Which year?',
      fileData: [],
      imageURL: '',
    });
  });

  it("keeps the form as it was and shows the server's message when the save is refused", async () => {
    fakeAssistantBackend({ failing: { 'db/assistant/put': { status: 400, message: 'Title can be at most 200 characters' } } });
    const user = userEvent.setup();
    const { router } = renderAssistantRoutes('/assistants/new');

    await fillRequired(user);
    await user.click(screen.getByRole('button', { name: 'Save assistant' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Title can be at most 200 characters');
    expect(router.state.location.pathname).toBe('/assistants/new');
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveValue('Lesson planner');
    expect(screen.getByRole('textbox', { name: 'System prompt' })).toHaveValue('You plan lessons.');
  });

  it("says 'Error saving assistant' when the server gives no reason", async () => {
    fakeAssistantBackend({ failing: { 'db/assistant/put': { status: 500 } } });
    const user = userEvent.setup();
    const { router } = renderAssistantRoutes('/assistants/new');

    await fillRequired(user);
    await user.click(screen.getByRole('button', { name: 'Save assistant' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Error saving assistant');
    expect(router.state.location.pathname).toBe('/assistants/new');
    expect(screen.getByRole('textbox', { name: 'Description' })).toHaveValue('Plans lessons.');
  });

  it("loads an assistant's values to edit and sends update with its id", async () => {
    const backend = fakeAssistantBackend({
      assistants: [
        assistant('a1', 'Lesson planner', {
          description: 'Plans lessons.',
          systemPrompt: 'You plan lessons.',
          initialMessage: 'Which year?',
          fileData: [file('syllabus.pdf')],
          imageURL: `${BLOB_BASE}public/t1/0001-owl.png`,
        }),
      ],
    });
    const user = userEvent.setup();
    const { router } = renderAssistantRoutes('/assistants/a1/edit');

    const title = await screen.findByRole('textbox', { name: 'Title' });
    expect(title).toHaveValue('Lesson planner');
    expect(screen.getByRole('textbox', { name: 'Description' })).toHaveValue('Plans lessons.');
    expect(screen.getByRole('textbox', { name: 'System prompt' })).toHaveValue('You plan lessons.');
    expect(screen.getByRole('textbox', { name: 'Initial message (optional)' })).toHaveValue('Which year?');
    expect(screen.getByRole('img', { name: 'Assistant picture preview' })).toHaveAttribute('src', `${BLOB_BASE}public/t1/0001-owl.png`);
    expect(attachedNames()).toEqual(['syllabus.pdf']);

    await user.clear(title);
    await user.paste('Unit planner');
    await user.click(screen.getByRole('button', { name: 'Save assistant' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/assistants'));
    expect(backend.calls.find((c) => c.path === 'db/assistant/update')?.body).toEqual({
      assistantId: 'a1',
      title: 'Unit planner',
      description: 'Plans lessons.',
      systemPrompt: 'You plan lessons.',
      initialMessage: 'Which year?',
      fileData: [file('syllabus.pdf')],
      imageURL: `${BLOB_BASE}public/t1/0001-owl.png`,
    });
    expect(backend.paths()).not.toContain('db/assistant/put');
  });

  it("shows a teammate's assistant read-only to a teacher who may not change it", async () => {
    server.use(
      http.get('/api/v1/db/user/get', () =>
        HttpResponse.json({ data: { user: { ...TEST_USER, team: { ...TEST_USER.team, ownerId: 'u2' } } } }),
      ),
    );
    fakeAssistantBackend({ assistants: [assistant('a2', 'Quiz maker', { isMine: false, isSaved: true, fileData: [file('quiz.pdf')] })] });
    renderAssistantRoutes('/assistants/a2/edit');

    expect(await screen.findByText(/Only the assistant's author or the team's owner can change it/)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveAttribute('readonly');
    expect(screen.queryByRole('button', { name: 'Save assistant' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Attach PDFs' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove quiz.pdf' })).not.toBeInTheDocument();
  });

  it('says so when the assistant is not in the list', async () => {
    fakeAssistantBackend({ assistants: [] });
    renderAssistantRoutes('/assistants/gone/edit');
    expect(await screen.findByRole('heading', { name: 'Assistant not found' })).toBeInTheDocument();
  });

  it('goes back to the page it came from on Cancel', async () => {
    fakeAssistantBackend({ assistants: [assistant('a1', 'Lesson planner')] });
    const user = userEvent.setup();
    const { router } = renderAssistantRoutes('/assistants/new', ['/assistants/a1/chat']);

    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/assistants/a1/chat'));
  });

  it('uploads an image as a public asset, previews it, saves its URL and can remove it', async () => {
    const backend = fakeAssistantBackend();
    const user = userEvent.setup();
    renderAssistantRoutes('/assistants/new');

    await fillRequired(user);
    await user.upload(screen.getByLabelText('Choose an image'), new File(['png'], 'owl.png', { type: 'image/png' }));

    const preview = await screen.findByRole('img', { name: 'Assistant picture preview' });
    expect(preview).toHaveAttribute('src', `${BLOB_BASE}public/t1/0001-owl.png`);
    expect(backend.calls.find((c) => c.path === 's3-public-asset-upload')?.body).toMatchObject({ fileName: 'owl.png', fileType: 'image/png', fileSize: 3 });
    expect(backend.calls.find((c) => c.path.startsWith('PUT '))).toEqual({ path: 'PUT public/t1/0001-owl.png', body: { contentType: 'image/png' } });

    await user.click(screen.getByRole('button', { name: 'Remove image' }));
    expect(screen.queryByRole('img', { name: 'Assistant picture preview' })).not.toBeInTheDocument();
    await user.upload(screen.getByLabelText('Choose an image'), new File(['png'], 'owl.png', { type: 'image/png' }));
    await screen.findByRole('img', { name: 'Assistant picture preview' });

    await user.click(screen.getByRole('button', { name: 'Save assistant' }));
    await waitFor(() => expect(backend.paths()).toContain('db/assistant/put'));
    expect(backend.calls.find((c) => c.path === 'db/assistant/put')?.body.imageURL).toBe(`${BLOB_BASE}public/t1/0002-owl.png`);
  });

  it('refuses a file that is not an image without uploading it', async () => {
    const backend = fakeAssistantBackend();
    // As if dropped or picked with "All files": the picker's filter does not stop it.
    const user = userEvent.setup({ applyAccept: false });
    renderAssistantRoutes('/assistants/new');

    await user.upload(await screen.findByLabelText('Choose an image'), new File(['x'], 'notes.txt', { type: 'text/plain' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Choose a PNG, JPEG, GIF or WebP image.');
    expect(backend.paths()).toEqual([]);
  });

  it('uploads PDFs to chats/, reads them and attaches each by name, with a remove button', async () => {
    const backend = fakeAssistantBackend();
    const user = userEvent.setup();
    renderAssistantRoutes('/assistants/new');

    await fillRequired(user);
    await user.upload(screen.getByLabelText('Choose PDFs to attach'), [pdf('syllabus.pdf'), pdf('scheme of work.pdf')]);

    await waitFor(() => expect(attachedNames()).toEqual(['syllabus.pdf', 'scheme of work.pdf']));
    expect(backend.calls.filter((c) => c.path === 's3-upload').map((c) => c.body.fileName)).toEqual(['chats/syllabus.pdf', 'chats/schemeofwork.pdf']);
    expect(backend.calls.find((c) => c.path === 'upload-and-read-pdf')?.body).toEqual({
      fileLinks: [`${BLOB_BASE}chats/t1/0001-syllabus.pdf`, `${BLOB_BASE}chats/t1/0002-schemeofwork.pdf`],
    });

    await user.click(screen.getByRole('button', { name: 'Remove syllabus.pdf' }));
    expect(attachedNames()).toEqual(['scheme of work.pdf']);
    await user.click(screen.getByRole('button', { name: 'Save assistant' }));
    await waitFor(() => expect(backend.paths()).toContain('db/assistant/put'));
    expect(backend.calls.find((c) => c.path === 'db/assistant/put')?.body.fileData).toEqual([
      { fileName: 'scheme of work.pdf', fileText: 'Text of schemeofwork.pdf', fileType: 'application/pdf' },
    ]);
  });

  it('disables attaching when 3 PDFs are present, and says why', async () => {
    fakeAssistantBackend({ assistants: [assistant('a1', 'Planner', { fileData: [file('a.pdf'), file('b.pdf'), file('c.pdf')] })] });
    const user = userEvent.setup();
    renderAssistantRoutes('/assistants/a1/edit');

    const attach = await screen.findByRole('button', { name: 'Attach PDFs' });
    expect(attach).toBeDisabled();
    expect(attach).toHaveAccessibleDescription('An assistant can hold at most 3 PDFs. Remove one to attach another.');

    await user.click(screen.getByRole('button', { name: 'Remove b.pdf' }));
    expect(screen.getByRole('button', { name: 'Attach PDFs' })).toBeEnabled();
  });

  it('reads only the free slots of a selection of 4 with 1 present, and names the files left out', async () => {
    const backend = fakeAssistantBackend({ assistants: [assistant('a1', 'Planner', { fileData: [file('a.pdf')] })] });
    const user = userEvent.setup();
    renderAssistantRoutes('/assistants/a1/edit');

    await user.upload(await screen.findByLabelText('Choose PDFs to attach'), [pdf('w.pdf'), pdf('x.pdf'), pdf('y.pdf'), pdf('z.pdf')]);

    expect(await screen.findByText(/left out/)).toHaveTextContent('An assistant holds at most 3 PDFs, so y.pdf and z.pdf were left out.');
    await waitFor(() => expect(attachedNames()).toEqual(['a.pdf', 'w.pdf', 'x.pdf']));
    expect(backend.calls.filter((c) => c.path === 's3-upload')).toHaveLength(2);
    expect(backend.calls.filter((c) => c.path === 'upload-and-read-pdf').map((c) => (c.body.fileLinks as string[]).length)).toEqual([2]);
    expect(screen.getByRole('button', { name: 'Attach PDFs' })).toBeDisabled();
  });

  it("says 'Couldn't read PDF' and attaches nothing when a PDF cannot be read", async () => {
    const backend = fakeAssistantBackend({
      readPdf: (links) => ({ textArray: links.map(() => '[Could not read scan.pdf: damaged]'), error: true }),
    });
    const user = userEvent.setup();
    renderAssistantRoutes('/assistants/new');

    await user.upload(await screen.findByLabelText('Choose PDFs to attach'), [pdf('scan.pdf')]);

    expect(await screen.findByRole('alert')).toHaveTextContent("Couldn't read PDF");
    expect(backend.paths()).toContain('upload-and-read-pdf');
    expect(attachedNames()).toEqual([]);
    expect(screen.getByRole('button', { name: 'Attach PDFs' })).toBeEnabled();
  });

  it("attaches the readable PDFs of a selection and leaves out only the one that is only images, naming it", async () => {
    const backend = fakeAssistantBackend({
      // What the server answers for an image-only PDF beside one with text (docs/api-submissions.md).
      readPdf: () => ({ textArray: ['Answer: chloroplasts', '[No text found in scanned.pdf]'], error: false, noText: [1] }),
    });
    const user = userEvent.setup();
    renderAssistantRoutes('/assistants/new');

    await user.upload(await screen.findByLabelText('Choose PDFs to attach'), [pdf('short-answer.pdf'), pdf('scanned.pdf')]);

    expect(await screen.findByRole('alert')).toHaveTextContent("Couldn't read PDF");
    expect(backend.paths()).toContain('upload-and-read-pdf');
    expect(attachedNames()).toEqual(['short-answer.pdf']);
    expect(screen.getByText(/No text could be read/)).toHaveTextContent(
      'No text could be read from scanned.pdf (damaged, or only scanned images), so it was left out.',
    );
    await fillRequired(user);
    await user.click(screen.getByRole('button', { name: 'Save assistant' }));
    await waitFor(() => expect(backend.paths()).toContain('db/assistant/put'));
    expect(backend.calls.find((c) => c.path === 'db/assistant/put')?.body.fileData).toEqual([
      { fileName: 'short-answer.pdf', fileText: 'Answer: chloroplasts', fileType: 'application/pdf' },
    ]);
  });

  it('of 4 PDFs with one scanned, attaches the other two read and names both the one left out and the scanned one', async () => {
    fakeAssistantBackend({
      readPdf: () => ({ textArray: ['Page 1', '[No text found in scanned.pdf]', 'Answer: chloroplasts'], error: false, noText: [1] }),
    });
    const user = userEvent.setup();
    renderAssistantRoutes('/assistants/new');

    await user.upload(await screen.findByLabelText('Choose PDFs to attach'), [
      pdf('text-3pages.pdf'),
      pdf('scanned.pdf'),
      pdf('short-answer.pdf'),
      pdf('mixed.pdf'),
    ]);

    await waitFor(() => expect(attachedNames()).toEqual(['text-3pages.pdf', 'short-answer.pdf']));
    expect(screen.getByText(/An assistant holds at most/)).toHaveTextContent('An assistant holds at most 3 PDFs, so mixed.pdf was left out.');
    expect(screen.getByText(/No text could be read/)).toHaveTextContent('No text could be read from scanned.pdf');
    expect(screen.getByRole('button', { name: 'Attach PDFs' })).toHaveAccessibleDescription('1 more PDF can be attached.');
  });

  it('attaches the PDFs read beside one the server flags as damaged, naming only that one', async () => {
    fakeAssistantBackend({
      readPdf: () => ({
        textArray: ['Unit 3: forces', '[Could not read broken.pdf: damaged]'],
        error: true,
        failures: [{ index: 1, name: 'broken.pdf', reason: 'damaged' }],
      }),
    });
    const user = userEvent.setup();
    renderAssistantRoutes('/assistants/new');

    await user.upload(await screen.findByLabelText('Choose PDFs to attach'), [pdf('notes.pdf'), pdf('broken.pdf')]);

    expect(await screen.findByRole('alert')).toHaveTextContent("Couldn't read PDF");
    expect(attachedNames()).toEqual(['notes.pdf']);
    expect(screen.getByText(/No text could be read/)).toHaveTextContent('No text could be read from broken.pdf');
  });

  it("says 'Couldn't read PDF' when the read call itself fails", async () => {
    fakeAssistantBackend({ failing: { 'upload-and-read-pdf': { status: 400, message: 'Too many files' } } });
    const user = userEvent.setup();
    renderAssistantRoutes('/assistants/new');

    await user.upload(await screen.findByLabelText('Choose PDFs to attach'), [pdf('scan.pdf')]);
    expect(await screen.findByRole('alert')).toHaveTextContent("Couldn't read PDF");
    expect(attachedNames()).toEqual([]);
  });
});
