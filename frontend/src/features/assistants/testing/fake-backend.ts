import { delay, http, HttpResponse } from 'msw';
import { server } from '../../../testing/server';
import type { Assistant } from '../types';

/** Where the fake store takes uploads; signed URLs are this plus the key and a signature. */
export const BLOB_BASE = 'http://localhost:3000/blob/';

/** A call the fake backend received: the API path (after /api/v1/) or `PUT <key>`, and its body. */
export interface Call {
  path: string;
  body: Record<string, unknown>;
}

/** An assistant with sensible defaults. */
export function assistant(id: string, title: string, overrides: Partial<Assistant> = {}): Assistant {
  return {
    _id: id,
    title,
    description: `${title} helps with planning.`,
    systemPrompt: `You are ${title}.`,
    initialMessage: '',
    fileData: [],
    imageURL: '',
    createdAt: '2026-03-01T10:00:00Z',
    updatedAt: '2026-03-01T10:00:00Z',
    isSaved: false,
    isMine: true,
    ...overrides,
  };
}

/** Options of {@link fakeAssistantBackend}. */
export interface FakeOptions {
  assistants?: Assistant[];
  /** Makes an API path (e.g. 'db/assistant/put') answer this error. */
  failing?: Record<string, { status: number; message?: string }>;
  /** Answers `upload-and-read-pdf` for the given links (default: "Text of {name}" per file). */
  readPdf?: (links: string[]) => Response | { textArray: string[]; error?: boolean; noText?: number[]; failures?: { index: number; name: string; reason: string }[] };
  /** Holds `upload-and-read-pdf` until this resolves. */
  readPdfGate?: Promise<void>;
}

/** An API error body. */
export function apiError(status: number, message?: string, code = 'invalid') {
  return HttpResponse.json(message ? { error: { code, message } } : {}, { status });
}

/**
 * An in-memory backend for the assistant screens: the list shows what the writes leave, uploads
 * are signed under {@link BLOB_BASE}, and every call (and PUT) is recorded in order.
 */
export function fakeAssistantBackend(options: FakeOptions = {}) {
  const state = { assistants: structuredClone(options.assistants ?? []) };
  const calls: Call[] = [];
  let nextId = 1;
  let nextKey = 1;

  const post = (path: string, handle: (body: Record<string, unknown>) => unknown) =>
    http.post(`/api/v1/${path}`, async ({ request }) => {
      const body = ((await request.json()) ?? {}) as Record<string, unknown>;
      calls.push({ path, body });
      const failure = options.failing?.[path];
      if (failure) return apiError(failure.status, failure.message);
      const result = await handle(body);
      return result instanceof Response ? result : HttpResponse.json({ data: result });
    });

  const find = (id: unknown) => state.assistants.find((a) => a._id === id);
  const notFound = () => apiError(404, 'Assistant not found', 'not_found');
  const sign = (folder: string) => (body: Record<string, unknown>) => {
    const name = String(body.fileName).replace(/^chats\//, '');
    const key = `${folder}${String(nextKey++).padStart(4, '0')}-${name}`;
    return { signedUrl: `${BLOB_BASE}${key}?sig=secret`, fileUrl: BLOB_BASE + key, key };
  };
  const fields = (body: Record<string, unknown>) => ({
    title: String(body.title),
    description: String(body.description),
    systemPrompt: String(body.systemPrompt),
    initialMessage: String(body.initialMessage ?? ''),
    fileData: (body.fileData ?? []) as Assistant['fileData'],
    imageURL: String(body.imageURL ?? ''),
  });

  server.use(
    post('db/assistant/list', () => ({ assistants: structuredClone(state.assistants) })),
    post('db/assistant/put', (body) => {
      const created = assistant(`new-${nextId++}`, String(body.title), { ...fields(body), isMine: true, isSaved: false });
      state.assistants.unshift(created);
      return { assistant: created };
    }),
    post('db/assistant/update', (body) => {
      const found = find(body.assistantId);
      if (!found) return notFound();
      Object.assign(found, fields(body));
      return { assistant: found };
    }),
    post('db/assistant/delete', (body) => {
      if (!find(body.assistantId)) return notFound();
      state.assistants = state.assistants.filter((a) => a._id !== body.assistantId);
      return { success: true };
    }),
    post('db/team/addSavedAssistant', (body) => {
      const found = find(body.assistantId);
      if (!found) return notFound();
      found.isSaved = true;
      return { success: true };
    }),
    post('db/team/removeSavedAssistant', (body) => {
      const found = find(body.assistantId);
      if (!found) return notFound();
      found.isSaved = false;
      return { success: true };
    }),
    post('s3-upload', sign('chats/t1/')),
    post('s3-public-asset-upload', sign('public/t1/')),
    http.put(`${BLOB_BASE}*`, async ({ request }) => {
      const key = decodeURIComponent(new URL(request.url).pathname.replace(/^\/blob\//, ''));
      calls.push({ path: `PUT ${key}`, body: { contentType: request.headers.get('content-type') } });
      return new HttpResponse(null, { status: 200 });
    }),
    post('upload-and-read-pdf', async (body) => {
      await options.readPdfGate;
      await delay(5);
      const links = body.fileLinks as string[];
      if (options.readPdf) return options.readPdf(links);
      return { textArray: links.map((link) => `Text of ${link.replace(/^.*\/\d{4}-/, '')}`), error: false };
    }),
  );

  return { state, calls, paths: () => calls.map((c) => c.path) };
}
