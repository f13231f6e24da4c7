/**
 * The one HTTP client for Markwell's backend. Every call goes to the same origin, sends and
 * expects JSON, and unwraps the backend's `{ "data": … }` envelope. Failures reject with an
 * {@link ApiError} carrying the backend's error body (or `{}` when there is none).
 */

/** Shape of a backend error body: `{"error": {"code": "invalid", "message": "…"}}`. */
export interface ApiErrorBody {
  error?: { code?: string; message?: string };
  [key: string]: unknown;
}

/** A failed call: a non-2xx response (status ≥ 300) or a network failure (status 0). */
export class ApiError extends Error {
  /** HTTP status, or 0 when no response arrived. */
  readonly status: number;
  /** The parsed error body, or `{}` when the body was missing or not JSON. */
  readonly body: ApiErrorBody;

  constructor(status: number, body: ApiErrorBody) {
    super(body.error?.message ?? (status ? `Request failed with status ${status}` : 'Network error'));
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }

  /** The backend's error code (invalid, not_found, forbidden, conflict, internal), if any. */
  get code(): string | undefined {
    return this.body.error?.code;
  }
}

/**
 * The message to show a teacher for a failed call: the backend's own message when it sent one,
 * otherwise `fallback` (network failures and bare 5xx responses carry nothing fit to show).
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    const message = error.body.error?.message;
    if (typeof message === 'string' && message.trim() !== '') return message;
  }
  return fallback;
}

/** Options accepted by every call. */
export interface RequestOptions {
  /** Cancels the request, e.g. the signal TanStack Query passes to a query function. */
  signal?: AbortSignal;
  /** Extra request headers (e.g. `X-Auth-Return-Redirect: 1` for session provider posts). */
  headers?: Record<string, string>;
  /** Set on the one retry after a refused CSRF token; callers leave it unset. */
  csrfRetried?: boolean;
  /**
   * Lets the request outlive the page (fetch `keepalive`), for a save sent as the page is hidden
   * or left. Browsers cap such bodies at 64 KiB: a larger body is sent as an ordinary request.
   */
  keepalive?: boolean;
}

/** The largest body sent with `keepalive` (browsers refuse more than 64 KiB in flight). */
const KEEPALIVE_MAX_BODY = 60_000;

/**
 * What a call resolves to on `304 Not Modified`: the answer the caller already holds is current.
 * Only a call that sent `If-None-Match` can get one (lib/revalidated-query.ts).
 */
export const NOT_MODIFIED: unique symbol = Symbol('not modified');

/** Base URL for every call: the page's own origin. */
const BASE_URL = '';

/** Where the session provider hands out CSRF tokens. */
export const CSRF_PATH = '/api/auth/csrf';

/** Header carrying the CSRF token on state-changing requests. */
export const CSRF_HEADER = 'X-CSRF-Token';

let csrfToken: Promise<string | null> | null = null;

/** The `<meta>` in which a page served to a signed-in browser carries its session's CSRF token. */
export const PAGE_CSRF_META = 'csrf-token';

/** The `<meta>` the page was served with its session's token in, until the token is taken or forgotten. */
function servedMeta(): HTMLMetaElement | null {
  return typeof document === 'undefined' ? null : document.querySelector<HTMLMetaElement>(`meta[name="${PAGE_CSRF_META}"]`);
}

/**
 * Whether the page was served to a signed-in browser (it carries the session's CSRF token), so its
 * first reads are worth sending before the session has been read.
 */
export function servedSignedIn(): boolean {
  return Boolean(servedMeta()?.content);
}

async function fetchCsrfToken(): Promise<string | null> {
  try {
    const res = await fetch(BASE_URL + CSRF_PATH, {
      credentials: 'same-origin',
      headers: { Accept: 'application/json' },
    });
    if (!res.ok) return null;
    const body: unknown = await res.json();
    const token = (body as { csrfToken?: unknown } | null)?.csrfToken;
    return typeof token === 'string' && token !== '' ? token : null;
  } catch {
    return null;
  }
}

/**
 * Returns the CSRF token: the page's own at first when it came with one, otherwise fetched on first
 * use; cached afterwards. Resolves to null (and caches nothing, so the next call tries again) when
 * the token cannot be fetched.
 */
export function getCsrfToken(): Promise<string | null> {
  const served = csrfToken ? null : servedMeta();
  if (served) {
    // The page came with the session's token: no round trip before the first write. Taken once.
    served.remove();
    if (served.content) csrfToken = Promise.resolve(served.content);
  }
  if (!csrfToken) {
    csrfToken = fetchCsrfToken().then((token) => {
      if (token === null) csrfToken = null;
      return token;
    });
  }
  return csrfToken;
}

/** Forgets the cached CSRF token; call it when the session changes (sign-in, sign-out). */
export function clearCsrfToken(): void {
  csrfToken = null;
  // The session changed: the token the page came with is no longer its.
  servedMeta()?.remove();
}

function isCsrfRefusal(body: unknown): boolean {
  return isObject(body) && isObject(body.error) && body.error.message === 'Invalid CSRF token';
}

async function readJson(res: Response): Promise<unknown> {
  try {
    const text = await res.text();
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** How a request body is sent and how its response is read. */
interface RequestShape {
  /** `json` sends the body as JSON; `form` sends it form-encoded. */
  encoding: 'json' | 'form';
  /** True unwraps the backend's `{ "data": … }` envelope; false returns the whole body. */
  unwrap: boolean;
}

const JSON_DATA: RequestShape = { encoding: 'json', unwrap: true };

async function request<T>(
  method: string,
  path: string,
  body: unknown,
  options: RequestOptions,
  shape: RequestShape = JSON_DATA,
): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  let payload: string | undefined;
  if (body !== undefined && shape.encoding === 'form') {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    payload = new URLSearchParams(body as Record<string, string>).toString();
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  if (method !== 'GET') {
    const token = await getCsrfToken();
    if (token) headers[CSRF_HEADER] = token;
  }

  let res: Response;
  try {
    res = await fetch(BASE_URL + path, {
      method,
      headers,
      body: payload,
      credentials: 'same-origin',
      signal: options.signal,
      ...(options.keepalive && new TextEncoder().encode(payload ?? '').length <= KEEPALIVE_MAX_BODY ? { keepalive: true } : {}),
    });
  } catch (err) {
    if (options.signal?.aborted) throw err;
    throw new ApiError(0, {});
  }

  if (res.status === 304) return NOT_MODIFIED as T;
  const parsed = await readJson(res);
  if (res.status === 403 && method !== 'GET' && !options.csrfRetried && isCsrfRefusal(parsed)) {
    // The token went stale: tokens are bound to the session, so the cookie changed when a
    // session began or ended (e.g. signing in or out in another tab, or the session expiring).
    // Fetch a fresh one and try once more.
    clearCsrfToken();
    return request<T>(method, path, body, { ...options, csrfRetried: true }, shape);
  }
  if (!res.ok) throw new ApiError(res.status, isObject(parsed) ? parsed : {});
  if (!shape.unwrap) return parsed as T;
  return (isObject(parsed) ? parsed.data : undefined) as T;
}

/** Markwell's API client. `get`, `post` and `put` resolve to the response's inner `data` field. */
export const api = {
  /** GET `path`. */
  get<T>(path: string, options: RequestOptions = {}): Promise<T> {
    return request<T>('GET', path, undefined, options);
  },
  /** POST `body` as JSON to `path`, with the CSRF header when a token is available. */
  post<T>(path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
    return request<T>('POST', path, body, options);
  },
  /** PUT `body` as JSON to `path`, with the CSRF header when a token is available. */
  put<T>(path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
    return request<T>('PUT', path, body, options);
  },
  /**
   * GET `path` and resolve to the whole JSON body, for endpoints without the `{ data }` envelope
   * (the session provider under `/api/auth`).
   */
  getRaw<T>(path: string, options: RequestOptions = {}): Promise<T> {
    return request<T>('GET', path, undefined, options, { encoding: 'json', unwrap: false });
  },
  /**
   * POST `fields` form-encoded (`application/x-www-form-urlencoded`) to `path` and resolve to the
   * whole JSON body, as the session provider's sign-in and sign-out endpoints expect.
   */
  postForm<T>(path: string, fields: Record<string, string>, options: RequestOptions = {}): Promise<T> {
    return request<T>('POST', path, fields, options, { encoding: 'form', unwrap: false });
  },
};
