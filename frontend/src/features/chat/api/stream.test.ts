import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '../../../testing/server';
import { TEST_CSRF_TOKEN } from '../../../testing/handlers';
import { ApiError } from '../../../lib/api-client';
import { sseEvent, streamBytes, holdChatStreams } from '../testing/sse-server';
import { CUT_OFF_MESSAGE, streamChat, type ChatStreamEvent } from './stream';

const BODY = { messages: [{ role: 'user' as const, content: 'Plan a lesson' }] };

const FULL =
  ': ping\r\n\r\n' +
  sseEvent('meta', { omittedTurns: 1 }) +
  sseEvent('delta', { text: 'Voilà — ' }) +
  ': ping\n\n' +
  sseEvent('delta', { text: 'the plan 📘' }).replace(/\n/g, '\r\n') +
  sseEvent('document', { document: '# Lesson' }) +
  sseEvent('done', { text: 'Voilà — the plan 📘', document: '# Lesson', usage: { model: 'm', promptTokens: 1, completionTokens: 2 } });

const EXPECTED: ChatStreamEvent[] = [
  { type: 'meta', omittedTurns: 1 },
  { type: 'delta', text: 'Voilà — ' },
  { type: 'delta', text: 'the plan 📘' },
  { type: 'document', document: '# Lesson' },
  { type: 'done', text: 'Voilà — the plan 📘', document: '# Lesson', usage: { model: 'm', promptTokens: 1, completionTokens: 2 } },
];

describe('streamChat', () => {
  it.each([1, 2, 3, 7, 4096])('reads every event of a body arriving %i byte(s) at a time', async (size) => {
    streamBytes(FULL, size);
    const events: ChatStreamEvent[] = [];
    const end = await streamChat(BODY, { onEvent: (e) => events.push(e) });
    expect(events).toEqual(EXPECTED);
    expect(end).toEqual(EXPECTED[4]);
  });

  it('posts the conversation as JSON with the CSRF header', async () => {
    let seen: { body: unknown; csrf: string | null } | null = null;
    server.use(
      http.post('/api/v1/chat/stream', async ({ request }) => {
        seen = { body: await request.json(), csrf: request.headers.get('X-CSRF-Token') };
        return new HttpResponse(sseEvent('done', { text: '', document: '' }), { headers: { 'Content-Type': 'text/event-stream' } });
      }),
    );
    await streamChat({ ...BODY, toolId: 'quiz-maker' }, { onEvent: () => undefined });
    expect(seen).toEqual({ body: { ...BODY, toolId: 'quiz-maker' }, csrf: TEST_CSRF_TOKEN });
  });

  it.each([
    [400, 'Send at least one message'],
    [404, 'Tool not found'],
    [429, 'You have used your AI budget for now. Please try again later.'],
  ])("rejects a %i refusal before the stream with the server's message", async (status, message) => {
    server.use(
      http.post('/api/v1/chat/stream', () => HttpResponse.json({ error: { code: 'invalid', message } }, { status })),
    );
    const err = await streamChat(BODY, { onEvent: () => undefined }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status, message });
  });

  it('ends with the error event when the model fails mid-stream', async () => {
    streamBytes(sseEvent('meta', { omittedTurns: 0 }) + sseEvent('delta', { text: 'Part' }) + sseEvent('error', { message: 'The AI model could not answer. Please try again.' }), 5);
    const events: ChatStreamEvent[] = [];
    const end = await streamChat(BODY, { onEvent: (e) => events.push(e) });
    expect(end).toEqual({ type: 'error', message: 'The AI model could not answer. Please try again.' });
    expect(events.map((e) => e.type)).toEqual(['meta', 'delta', 'error']);
  });

  it('rejects when the stream closes before done', async () => {
    streamBytes(sseEvent('meta', { omittedTurns: 0 }) + sseEvent('delta', { text: 'Part' }));
    await expect(streamChat(BODY, { onEvent: () => undefined })).rejects.toThrow(CUT_OFF_MESSAGE);
  });

  it('stops reading when aborted and rejects with an AbortError', async () => {
    const streams = holdChatStreams();
    const ctrl = new AbortController();
    const events: ChatStreamEvent[] = [];
    const done = streamChat(BODY, { signal: ctrl.signal, onEvent: (e) => events.push(e) });
    await expect.poll(() => streams.length).toBe(1);
    streams[0].send('delta', { text: 'Half' });
    await expect.poll(() => events.length).toBe(1);
    ctrl.abort();
    await expect(done).rejects.toMatchObject({ name: 'AbortError' });
    streams[0].send('delta', { text: 'more' });
    expect(events).toEqual([{ type: 'delta', text: 'Half' }]);
    expect(streams[0].cancelled()).toBe(true);
  });
});
