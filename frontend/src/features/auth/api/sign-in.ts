import { useMutation } from '@tanstack/react-query';
import { api, ApiError, clearCsrfToken } from '../../../lib/api-client';
import { browserLocation } from '../../../lib/navigation';
import { notifySessionChange } from '../session/broadcast';
import { errorFromUrl } from '../session/callback-url';
import { getCsrfToken } from './get-csrf-token';
import type { AuthProvider } from './get-providers';
import { AUTH_BASE_PATH } from './get-session';

/** Header asking the session provider to answer with JSON `{url}` instead of a redirect. */
export const RETURN_REDIRECT_HEADER = { 'X-Auth-Return-Redirect': '1' } as const;

/** What to sign in with and where to go afterwards. */
export interface SignInInput {
  provider: Pick<AuthProvider, 'id' | 'type'>;
  /** Where the session provider sends the teacher after signing in (a same-origin path). */
  callbackUrl: string;
  /** Extra form fields, e.g. `name` and `email` for the development sign-in. */
  fields?: Record<string, string>;
}

/**
 * The outcome of a sign-in, as NextAuth's `signIn(…, { redirect: false })` reports it (spec §8):
 * `url` is where to go next (the provider's consent page for OAuth, the callback URL after a
 * credentials sign-in); `error` is the NextAuth error name when it failed.
 */
export interface SignInResult {
  ok: boolean;
  status: number;
  url: string | null;
  error: string | null;
}

/**
 * Starts a sign-in: OAuth providers through `POST /api/auth/signin/{id}`, credentials through
 * `POST /api/auth/callback/{id}`, form-encoded with the CSRF token, the callback URL and
 * `json=true`. Rejects only when the server cannot be reached or no CSRF token can be had.
 * A sign-in that starts a session renews the CSRF token, so once the server has answered the
 * cached token is forgotten and the next write fetches the new one.
 */
export async function signIn({ provider, callbackUrl, fields = {} }: SignInInput): Promise<SignInResult> {
  const csrfToken = await getCsrfToken().catch(() => {
    throw new ApiError(0, {});
  });
  const action = provider.type === 'credentials' ? 'callback' : 'signin';
  const path = `${AUTH_BASE_PATH}/${action}/${encodeURIComponent(provider.id)}`;
  try {
    const body = await api.postForm<{ url?: unknown } | undefined>(
      path,
      { ...fields, csrfToken, callbackUrl, json: 'true' },
      { headers: RETURN_REDIRECT_HEADER },
    );
    clearCsrfToken();
    const url = typeof body?.url === 'string' ? body.url : null;
    const error = errorFromUrl(url);
    return { ok: error === null && url !== null, status: 200, url, error: error ?? (url ? null : 'Signin') };
  } catch (err) {
    if (!(err instanceof ApiError) || err.status === 0) throw err;
    const url = typeof err.body.url === 'string' ? err.body.url : null;
    return { ok: false, status: err.status, url, error: errorFromUrl(url) ?? 'Signin' };
  }
}

/**
 * Signs in. On success it tells other tabs (credentials sign-ins change the session at once) and
 * loads the returned URL; on failure the result carries the error name for the page to show.
 */
export function useSignIn() {
  return useMutation({
    mutationFn: signIn,
    onSuccess: (result, { provider }) => {
      if (!result.ok || !result.url) return;
      if (provider.type === 'credentials') notifySessionChange('signin');
      browserLocation.assign(result.url);
    },
  });
}
