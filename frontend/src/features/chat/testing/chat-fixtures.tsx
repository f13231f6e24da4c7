import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { renderRoutes } from '../../../testing/render-routes';
import { server } from '../../../testing/server';
import { chatRoutes } from '../routes';
import type { ChatDoc } from '../types';

/** Renders the chat pages at `path`; returns the router and a user-event instance. */
export function renderChat(path: string) {
  const user = userEvent.setup({ delay: null });
  const result = renderRoutes(chatRoutes, { initialEntries: [path] });
  return { ...result, user };
}

/** Types `text` into the composer and presses Enter. */
export async function sendMessage(user: ReturnType<typeof userEvent.setup>, text: string) {
  await user.type(screen.getByRole('textbox', { name: 'Message' }), `${text}{Enter}`);
}

/** A saved chat as `chat/get` lists it. */
export function chatDoc(overrides: Partial<ChatDoc> = {}): ChatDoc {
  return {
    _id: 'c1',
    title: 'Plan a lesson on fractions',
    messages: [
      { role: 'user', content: 'Plan a lesson on fractions' },
      { role: 'assistant', content: 'Here is a first plan.' },
      { role: 'user', content: 'Add homework' },
      { role: 'assistant', content: 'Homework added.' },
    ],
    document: '# Fractions v2\n\nHomework: page 12',
    pastDocuments: [
      { messageIndex: 1, document: '# Fractions v1' },
      { messageIndex: 3, document: '# Fractions v2\n\nHomework: page 12' },
    ],
    assistantId: null,
    toolId: '',
    createdAt: '2026-03-01T10:00:00Z',
    updatedAt: '2026-03-02T10:00:00Z',
    ...overrides,
  };
}

/** Answers `chat/get` with `chats` (a live array: tests may change it). */
export function serveChats(chats: ChatDoc[]) {
  server.use(http.put('/api/v1/db/chat/get', () => HttpResponse.json({ data: { chatDocs: chats } })));
}
