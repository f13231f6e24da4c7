import { ApiError, clearCsrfToken, CSRF_HEADER, getCsrfToken, type ApiErrorBody } from '../../../lib/api-client';
import type { ChatMessage, WorkflowRun } from '../types';
import { SseParser } from './sse';

/** Where the model's answers stream from. */
export const CHAT_STREAM_PATH = '/api/v1/chat/stream';

/** What `chat/stream` takes. */
export interface ChatStreamRequest {
  messages: ChatMessage[];
  assistantId?: string;
  toolId?: string;
  workflow?: WorkflowRun;
  /** The current document with the teacher's edits: the model revises this one. */
  document?: string;
}

/** Token counts of a finished answer. */
export interface ChatUsage {
  model: string;
  promptTokens: number;
  completionTokens: number;
}

/** The events of a chat stream, in the order the server sends them. */
export type ChatStreamEvent =
  | { type: 'meta'; omittedTurns: number; prompt?: string }
  | { type: 'delta'; text: string }
  | { type: 'document'; document: string }
  | { type: 'done'; text: string; document: string; usage?: ChatUsage }
  | { type: 'error'; message: string };

/** The event that ends a stream. */
export type ChatStreamEnd = Extract<ChatStreamEvent, { type: 'done' | 'error' }>;

/** Options of {@link streamChat}. */
export interface StreamChatOptions {
  /** Called for each event as it arrives. */
  onEvent: (event: ChatStreamEvent) => void;
  /** Aborting stops the answer: the request is cancelled and the call rejects with an AbortError. */
  signal?: AbortSignal;
}

/** Said when a stream closes before its `done` or `error` event. */
export const CUT_OFF_MESSAGE = 'The connection closed before the answer was finished. Please try again.';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function abortError(): DOMException {
  return new DOMException('The answer was stopped.', 'AbortError');
}

/** Turns one server-sent event into a typed event; unknown names give null. */
export function toChatEvent(name: string, data: string): ChatStreamEvent | null {
  if (!['meta', 'delta', 'document', 'done', 'error'].includes(name)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    throw new Error('The server sent an answer that could not be read. Please try again.');
  }
  const body = isObject(parsed) ? parsed : {};
  const str = (key: string) => (typeof body[key] === 'string' ? body[key] : '');
  switch (name) {
    case 'meta': {
      const omitted = typeof body.omittedTurns === 'number' ? body.omittedTurns : 0;
      const prompt = typeof body.prompt === 'string' && body.prompt !== '' ? body.prompt : undefined;
      return prompt === undefined ? { type: 'meta', omittedTurns: omitted } : { type: 'meta', omittedTurns: omitted, prompt };
    }
    case 'delta':
      return { type: 'delta', text: str('text') };
    case 'document':
      return { type: 'document', document: str('document') };
    case 'done':
      return {
        type: 'done',
        text: str('text'),
        document: str('document'),
        usage: isObject(body.usage) ? (body.usage as unknown as ChatUsage) : undefined,
      };
    default:
      return { type: 'error', message: str('message') || 'The AI model could not answer. Please try again.' };
  }
}

async function readErrorBody(res: Response): Promise<ApiErrorBody> {
  try {
    const parsed: unknown = JSON.parse(await res.text());
    return isObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

async function post(body: ChatStreamRequest, signal: AbortSignal | undefined, csrfRetried: boolean): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'text/event-stream', 'Content-Type': 'application/json' };
  const token = await getCsrfToken();
  if (token) headers[CSRF_HEADER] = token;
  let res: Response;
  try {
    res = await fetch(CHAT_STREAM_PATH, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      credentials: 'same-origin',
      signal,
    });
  } catch {
    if (signal?.aborted) throw abortError();
    throw new ApiError(0, {});
  }
  if (res.ok) return res;
  const error = await readErrorBody(res);
  if (res.status === 403 && !csrfRetried && error.error?.message === 'Invalid CSRF token') {
    clearCsrfToken();
    return post(body, signal, true);
  }
  throw new ApiError(res.status, error);
}

/**
 * Asks the model for the next answer (`POST /api/v1/chat/stream`) and reads its server-sent
 * events as they arrive, calling `onEvent` for each. Resolves with the event that ended the
 * stream (`done`, or `error` when the model failed after the stream started). Rejects with an
 * ApiError carrying the server's message when the request is refused before the stream starts
 * (400, 404, 429), with an ApiError of status 0 on a network failure, with an Error when the
 * stream is cut off, and with an AbortError when `signal` stops it.
 */
export async function streamChat(body: ChatStreamRequest, { onEvent, signal }: StreamChatOptions): Promise<ChatStreamEnd> {
  const res = await post(body, signal, false);
  if (!res.body) throw new Error(CUT_OFF_MESSAGE);
  const reader = res.body.getReader();
  // Cancelling the reader settles a pending read at once, whatever the transport does with the abort.
  const onAbort = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', onAbort);

  // An object, so the type checker sees the parser's callback set it.
  const result: { end: ChatStreamEnd | null } = { end: null };
  const parser = new SseParser(({ event, data }) => {
    if (result.end || signal?.aborted) return;
    const parsed = toChatEvent(event, data);
    if (!parsed) return;
    if (parsed.type === 'done' || parsed.type === 'error') result.end = parsed;
    onEvent(parsed);
  });
  const decoder = new TextDecoder();
  try {
    while (!result.end) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (err) {
        if (signal?.aborted) throw abortError();
        throw err instanceof Error && err.name !== 'TypeError' ? err : new ApiError(0, {});
      }
      if (signal?.aborted) throw abortError();
      if (chunk.done) {
        parser.push(decoder.decode());
        break;
      }
      parser.push(decoder.decode(chunk.value, { stream: true }));
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (result.end) void reader.cancel().catch(() => undefined);
  }
  if (signal?.aborted) throw abortError();
  if (!result.end) throw new Error(CUT_OFF_MESSAGE);
  return result.end;
}
