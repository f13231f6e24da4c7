import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentPath } from '../../../testing/test-utils';
import { stubLayoutForProseMirror } from '../../../testing/prosemirror';
import { server } from '../../../testing/server';
import { chatDoc, renderChat, sendMessage, serveChats } from '../testing/chat-fixtures';
import { holdChatStreams, type TestStream } from '../testing/sse-server';
import type { ChatDoc } from '../types';

stubLayoutForProseMirror();

const pane = () => screen.getByRole('region', { name: 'Document' });
const shownDocument = () => within(pane()).getByRole('document');

/** Sends `text` and answers it with `reply` and `document` on stream `i`. */
async function answer(
  user: Parameters<typeof sendMessage>[0],
  streams: TestStream[],
  i: number,
  text: string,
  reply: string,
  document: string,
) {
  await sendMessage(user, text);
  await waitFor(() => expect(streams).toHaveLength(i + 1));
  streams[i].send('meta', { omittedTurns: 0 });
  streams[i].send('delta', { text: reply });
  streams[i].send('document', { document });
  streams[i].send('done', { text: reply, document });
  await within(screen.getByRole('list', { name: 'Messages' })).findByText(reply);
}

afterEach(() => vi.restoreAllMocks());

describe('document pane', { timeout: 60_000 }, () => {
  it('opens with the document while it streams, records each version and steps back to version 1', async () => {
    const streams = holdChatStreams();
    const { user } = renderChat('/chat');
    await sendMessage(user, 'Plan a lesson');
    await waitFor(() => expect(streams).toHaveLength(1));
    streams[0].send('meta', { omittedTurns: 0 });
    streams[0].send('document', { document: '# Draft' });
    const opened = await screen.findByRole('region', { name: 'Document' });
    expect(within(opened).getByRole('heading', { name: 'Draft' })).toBeInTheDocument();
    streams[0].send('done', { text: 'Here it is.', document: '# Lesson v1' });
    expect(await within(pane()).findByRole('heading', { name: 'Lesson v1' })).toBeInTheDocument();
    expect(within(pane()).getByText('Version 1 of 1')).toBeInTheDocument();

    await answer(user, streams, 1, 'Add homework', 'Homework added.', '# Lesson v2');
    expect(streams[1].body).toEqual({
      messages: [
        { role: 'user', content: 'Plan a lesson' },
        { role: 'assistant', content: 'Here it is.' },
        { role: 'user', content: 'Add homework' },
      ],
      // Earlier answers carry only their chat text: the model revises the document sent beside them.
      document: '# Lesson v1',
    });
    expect(within(pane()).getByText('Version 2 of 2')).toBeInTheDocument();
    expect(within(shownDocument()).getByRole('heading', { name: 'Lesson v2' })).toBeInTheDocument();

    await user.click(within(pane()).getByRole('button', { name: 'Previous version' }));
    expect(within(pane()).getByText('Version 1 of 2')).toBeInTheDocument();
    expect(within(shownDocument()).getByRole('heading', { name: 'Lesson v1' })).toBeInTheDocument();
    expect(within(pane()).queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();

    await user.click(within(pane()).getByRole('button', { name: 'Next version' }));
    expect(within(pane()).getByText('Version 2 of 2')).toBeInTheDocument();

    // An older version can become the current document again.
    await user.click(within(pane()).getByRole('button', { name: 'Previous version' }));
    await user.click(within(pane()).getByRole('button', { name: 'Use this version' }));
    expect(within(pane()).getByText('Version 1 of 2')).toBeInTheDocument();
    expect(within(pane()).getByRole('button', { name: 'Edit' })).toBeInTheDocument();
    expect(within(shownDocument()).getByRole('heading', { name: 'Lesson v1' })).toBeInTheDocument();
  });

  it('keeps a hand edit as a version of its own ("Your edit") when a revision is asked for, and revises it', async () => {
    const streams = holdChatStreams();
    const puts: unknown[] = [];
    server.use(
      http.put('/api/v1/db/chat/put', async ({ request }) => {
        puts.push(await request.json());
        return HttpResponse.json({ data: { chatDoc: { _id: 'new-chat' } } });
      }),
    );
    serveChats([]);
    const { user } = renderChat('/chat');
    await answer(user, streams, 0, 'Plan', 'Done.', '# Plan');

    await user.click(within(pane()).getByRole('button', { name: 'Edit' }));
    // A rich-text editor: the heading shows as a heading, not as "# Plan".
    const editor = await within(pane()).findByRole('textbox', { name: 'Edit the document' });
    expect(within(editor).getByRole('heading', { name: 'Plan' })).toBeInTheDocument();
    expect(editor).not.toHaveTextContent('#');
    // jsdom cannot type into a contenteditable (the browser test types); the toolbar edits here:
    // the title becomes a level-2 heading.
    await user.click(within(pane()).getByRole('button', { name: 'Heading' }));
    await waitFor(() => expect(editor.querySelector('h2')).toHaveTextContent('Plan'));
    await user.click(within(pane()).getByRole('button', { name: 'Preview' }));
    expect(within(shownDocument()).getByRole('heading', { name: 'Plan', level: 2 })).toBeInTheDocument();
    expect(within(pane()).getByText('Edited draft · 1 earlier version')).toBeInTheDocument();

    // The next change the teacher asks for starts from the edit, and the edit stays a version.
    await answer(user, streams, 1, 'Shorter please', 'Shortened.', '# Plan, shorter');
    expect(streams[1].body).toMatchObject({ document: '## Plan' });
    const asked = within(screen.getByRole('list', { name: 'Messages' })).getAllByRole('listitem', { name: 'You' })[1];
    expect(asked).toHaveTextContent('Your edit kept as a version');
    expect(within(pane()).getByText('Version 3 of 3')).toBeInTheDocument();
    await user.click(within(pane()).getByRole('button', { name: 'Previous version' }));
    expect(within(pane()).getByText('Your edit · version 2 of 3')).toBeInTheDocument();
    expect(within(shownDocument()).getByRole('heading', { name: 'Plan', level: 2 })).toBeInTheDocument();

    // The versions list names it too, and opens it.
    await user.click(within(pane()).getByRole('button', { name: 'Next version' }));
    await user.click(within(pane()).getByRole('button', { name: 'Versions' }));
    const items = screen.getAllByRole('menuitem').map((item) => item.textContent);
    expect(items).toEqual(['Version 1', 'Version 2 · Your edit', 'Version 3Current document']);
    await user.click(screen.getByRole('menuitem', { name: /Your edit/ }));
    expect(within(pane()).getByText('Your edit · version 2 of 3')).toBeInTheDocument();
    expect(within(shownDocument()).getByRole('heading', { name: 'Plan', level: 2 })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Save chat' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toMatchObject({
      chatState: {
        document: '# Plan, shorter',
        pastDocuments: [
          { messageIndex: 1, document: '# Plan' },
          // Kept against the teacher's message that asked for the revision.
          { messageIndex: 2, document: '## Plan' },
          { messageIndex: 3, document: '# Plan, shorter' },
        ],
      },
    });
  });

  it('reopens a saved chat with its edit still labelled "Your edit"', async () => {
    serveChats([
      chatDoc({
        _id: 'c-edit',
        messages: [
          { role: 'user', content: 'Plan' },
          { role: 'assistant', content: 'Done.' },
          { role: 'user', content: 'Shorter' },
          { role: 'assistant', content: 'Shortened.' },
        ],
        document: '# Short',
        pastDocuments: [
          { messageIndex: 1, document: '# Plan' },
          { messageIndex: 2, document: '# My plan' },
          { messageIndex: 3, document: '# Short' },
        ],
      }),
    ]);
    const { user } = renderChat('/chat/c-edit');
    expect(await within(await screen.findByRole('region', { name: 'Document' })).findByText('Version 3 of 3')).toBeInTheDocument();
    await user.click(within(pane()).getByRole('button', { name: 'Previous version' }));
    expect(within(pane()).getByText('Your edit · version 2 of 3')).toBeInTheDocument();
    expect(within(shownDocument()).getByRole('heading', { name: 'My plan' })).toBeInTheDocument();
  });

  it('downloads the document as downloaded.docx, and shows a refusal in a toast', async () => {
    const streams = holdChatStreams();
    const bodies: unknown[] = [];
    let refuse = false;
    server.use(
      http.post('/api/v1/chat/download-docx', async ({ request }) => {
        bodies.push(await request.json());
        if (refuse) {
          return HttpResponse.json(
            { error: { code: 'invalid', message: 'Fetch image was failed: https://evil.example/a.png' } },
            { status: 400 },
          );
        }
        return new HttpResponse(new Uint8Array([80, 75, 3, 4]), {
          headers: { 'Content-Type': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
        });
      }),
    );
    const createUrl = vi.fn((_blob: Blob) => 'blob:docx');
    Object.assign(URL, { createObjectURL: createUrl, revokeObjectURL: vi.fn() });
    const clicks: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(`${this.download} ${this.href}`);
    });

    const { user } = renderChat('/chat');
    await answer(user, streams, 0, 'Plan', 'Done.', '# Plan\n\n- one');
    await user.click(within(pane()).getByRole('button', { name: 'Download Word' }));

    await waitFor(() => expect(clicks).toEqual(['downloaded.docx blob:docx']));
    expect(bodies).toEqual([{ markdown: '# Plan\n\n- one' }]);
    expect(createUrl.mock.calls[0][0].size).toBe(4);

    refuse = true;
    await user.click(within(pane()).getByRole('button', { name: 'Download Word' }));
    expect(await screen.findByText('Fetch image was failed: https://evil.example/a.png')).toBeInTheDocument();
    expect(clicks).toHaveLength(1);
  });
});

describe('saving and previous chats', { timeout: 60_000 }, () => {
  it('saves the chat state, moves to /chat/:chatId and shows it saved', async () => {
    const streams = holdChatStreams();
    const chats: ChatDoc[] = [];
    const puts: unknown[] = [];
    server.use(
      http.put('/api/v1/db/chat/put', async ({ request }) => {
        const body = (await request.json()) as { chatState: Omit<ChatDoc, '_id' | 'title' | 'createdAt' | 'updatedAt'> };
        puts.push(body);
        chats.splice(0, chats.length, chatDoc({ ...body.chatState, _id: 'c9' }));
        return HttpResponse.json({ data: { chatDoc: { _id: 'c9' } } });
      }),
    );
    serveChats(chats);
    const { user, router } = renderChat('/chat');
    expect(await screen.findByText('Not saved yet')).toBeInTheDocument();
    await answer(user, streams, 0, 'Plan a lesson', 'Here it is.', '# Plan');

    await user.click(screen.getByRole('button', { name: 'Save chat' }));
    await waitFor(() => expect(currentPath(router)).toBe('/chat/c9'));
    expect(puts).toEqual([
      {
        chatState: {
          messages: [
            { role: 'user', content: 'Plan a lesson' },
            { role: 'assistant', content: 'Here it is.' },
          ],
          document: '# Plan',
          pastDocuments: [{ messageIndex: 1, document: '# Plan' }],
        },
      },
    ]);
    // The reopened chat shows the same conversation and document.
    expect(await screen.findByText('Saved')).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Messages' })).getByText('Here it is.')).toBeInTheDocument();
    expect(within(pane()).getByText('Version 1 of 1')).toBeInTheDocument();

    // A later change is unsaved until saved again, now with its id.
    await answer(user, streams, 1, 'Shorter', 'Shorter now.', '# Short plan');
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save chat' }));
    await waitFor(() => expect(puts).toHaveLength(2));
    expect(puts[1]).toMatchObject({ chatState: { chatId: 'c9', document: '# Short plan' } });
    expect(await screen.findByText('Saved')).toBeInTheDocument();
  });

  it('saves a new chat once when "Save chat" is clicked twice quickly', async () => {
    const streams = holdChatStreams();
    const chats: ChatDoc[] = [];
    server.use(
      http.put('/api/v1/db/chat/put', async ({ request }) => {
        const body = (await request.json()) as { chatState: Omit<ChatDoc, '_id' | 'title' | 'createdAt' | 'updatedAt'> };
        // Each call without a chatId is a new entry under "Previous chats", as on the server.
        const id = `c${chats.length + 1}`;
        chats.push(chatDoc({ ...body.chatState, _id: id }));
        return HttpResponse.json({ data: { chatDoc: { _id: id } } });
      }),
    );
    serveChats(chats);
    const { user, router } = renderChat('/chat');
    await answer(user, streams, 0, 'Plan a lesson', 'Here it is.', '# Plan');

    const save = screen.getByRole('button', { name: 'Save chat' });
    fireEvent.click(save);
    fireEvent.click(save);

    await waitFor(() => expect(currentPath(router)).toBe('/chat/c1'));
    expect(await screen.findByText('Saved')).toBeInTheDocument();
    expect(chats.map((c) => c._id)).toEqual(['c1']);
  });

  it('reopens a chat from the previous chats with its document and versions', async () => {
    serveChats([chatDoc(), chatDoc({ _id: 'c2', title: 'Older chat', updatedAt: '2026-02-01T10:00:00Z' })]);
    const { user, router } = renderChat('/chat');
    await user.click(await screen.findByRole('button', { name: 'Previous chats' }));
    const list = await screen.findByRole('list', { name: 'Saved chats' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining('Plan a lesson on fractions'),
      expect.stringContaining('Older chat'),
    ]);

    await user.click(within(list).getByText('Plan a lesson on fractions'));
    await waitFor(() => expect(currentPath(router)).toBe('/chat/c1'));
    expect(await within(screen.getByRole('list', { name: 'Messages' })).findByText('Homework added.')).toBeInTheDocument();
    expect(within(pane()).getByText('Version 2 of 2')).toBeInTheDocument();
    expect(within(shownDocument()).getByText('Homework: page 12')).toBeInTheDocument();
    await user.click(within(pane()).getByRole('button', { name: 'Previous version' }));
    expect(within(shownDocument()).getByRole('heading', { name: 'Fractions v1' })).toBeInTheDocument();
    expect(screen.getByText('Saved')).toBeInTheDocument();
  });

  it('deletes a chat after a confirm', async () => {
    const chats = [chatDoc(), chatDoc({ _id: 'c2', title: 'Older chat' })];
    const deletes: unknown[] = [];
    serveChats(chats);
    server.use(
      http.post('/api/v1/db/chat/delete', async ({ request }) => {
        const body = (await request.json()) as { chatId: string };
        deletes.push(body);
        chats.splice(chats.findIndex((c) => c._id === body.chatId), 1);
        return HttpResponse.json({ data: { success: true } });
      }),
    );
    const { user } = renderChat('/chat');
    await user.click(await screen.findByRole('button', { name: 'Previous chats' }));
    await user.click(await screen.findByRole('button', { name: 'Delete chat Older chat' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this chat?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(deletes).toEqual([{ chatId: 'c2' }]));
    await waitFor(() => expect(screen.queryByText('Older chat')).not.toBeInTheDocument());
    expect(screen.getByText('Plan a lesson on fractions')).toBeInTheDocument();
  });
});

describe('attachments', { timeout: 60_000 }, () => {
  function serveUploads(read: () => Response) {
    const reads: unknown[] = [];
    const uploads: unknown[] = [];
    server.use(
      http.post('/api/v1/s3-upload', async ({ request }) => {
        const body = (await request.json()) as { fileName: string };
        uploads.push(body);
        return HttpResponse.json({ data: { signedUrl: `/files/upload/${body.fileName}?sig=1` } });
      }),
      http.put('/files/upload/*', () => new HttpResponse(null, { status: 200 })),
      http.post('/api/v1/upload-and-read-files', async ({ request }) => {
        reads.push(await request.json());
        return read();
      }),
    );
    return { reads, uploads };
  }

  it('reads attached files into the chat and sends their text with the next message', async () => {
    const streams = holdChatStreams();
    const { reads, uploads } = serveUploads(() =>
      HttpResponse.json({ data: { textArray: ['Photosynthesis notes', '[No text found in empty.txt]'], error: false } }),
    );
    const { user } = renderChat('/chat');
    await user.upload(screen.getByTestId('chat-file-input'), [
      new File(['%PDF'], 'notes.pdf', { type: 'application/pdf' }),
      new File([''], 'empty.txt', { type: 'text/plain' }),
    ]);

    expect(await screen.findByText('Files notes.pdf, empty.txt read successfully! How can I help?')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'File read: notes.pdf, empty.txt' })).toBeInTheDocument();
    expect(uploads).toMatchObject([{ fileName: 'chats/notes.pdf' }, { fileName: 'chats/empty.txt' }]);
    expect(reads).toEqual([
      { fileLinks: ['/files/upload/chats/notes.pdf', '/files/upload/chats/empty.txt'], fileNames: ['notes.pdf', 'empty.txt'] },
    ]);

    await sendMessage(user, 'Summarise');
    await waitFor(() => expect(streams).toHaveLength(1));
    const sent = (streams[0].body as { messages: { role: string; content: string }[] }).messages;
    expect(sent.map((m) => m.role)).toEqual(['system', 'assistant', 'user']);
    expect(sent[0].content).toContain('Photosynthesis notes');
    expect(sent[0].content).toContain('[No text found in empty.txt]');
  });

  it('says Error reading files when the files cannot be read', async () => {
    serveUploads(() =>
      HttpResponse.json({ error: { code: 'invalid', message: 'At most 10 files can be read at once.' } }, { status: 400 }),
    );
    const { user } = renderChat('/chat');
    await user.upload(screen.getByTestId('chat-file-input'), new File(['x'], 'notes.pdf', { type: 'application/pdf' }));
    expect(
      await within(screen.getByRole('list', { name: 'Messages' })).findByText('Error reading files'),
    ).toBeInTheDocument();
    expect(screen.queryByText(/read successfully/)).not.toBeInTheDocument();
  });
});
