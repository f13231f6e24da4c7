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

/** Options accepted by every call. */
export interface RequestOptions {
  /** Cancels the request, e.g. the signal TanStack Query passes to a query function. */
  signal?: AbortSignal;
}

/** Base URL for every call: the page's own origin. */
const BASE_URL = '';

/** Where the session provider hands out CSRF tokens. */
export const CSRF_PATH = '/api/auth/csrf';

/** Header carrying the CSRF token on state-changing requests. */
export const CSRF_HEADER = 'X-CSRF-Token';

let csrfToken: Promise<string | null> | null = null;

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
 * Returns the CSRF token, fetching it on first use and caching it afterwards. Resolves to null
 * (and caches nothing, so the next call tries again) when the token cannot be fetched.
 */
export function getCsrfToken(): Promise<string | null> {
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

async function request<T>(method: string, path: string, body: unknown, options: RequestOptions): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET') {
    const token = await getCsrfToken();
    if (token) headers[CSRF_HEADER] = token;
  }

  let res: Response;
  try {
    res = await fetch(BASE_URL + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (err) {
    if (options.signal?.aborted) throw err;
    throw new ApiError(0, {});
  }

  const parsed = await readJson(res);
  if (!res.ok) throw new ApiError(res.status, isObject(parsed) ? parsed : {});
  return (isObject(parsed) ? parsed.data : undefined) as T;
}

/** Markwell's API client. Each method resolves to the response's inner `data` field. */
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
};
