import { useMutation } from '@tanstack/react-query';
import { api, clearCsrfToken } from '../../../lib/api-client';
import { browserLocation } from '../../../lib/navigation';
import { notifySessionChange } from '../session/broadcast';
import { SIGN_IN_PATH } from '../session/callback-url';
import { getCsrfToken } from './get-csrf-token';
import { AUTH_BASE_PATH } from './get-session';
import { RETURN_REDIRECT_HEADER } from './sign-in';

/** Where to go after signing out. */
export interface SignOutInput {
  /** Defaults to the sign-in page. */
  callbackUrl?: string;
}

/**
 * Signs out (`POST /api/auth/signout`, form-encoded CSRF token and callback URL) and resolves to
 * the in-app path to load next: the server's answer when it points at this origin, otherwise the
 * callback URL. Signing out renews the CSRF token, so the cached one is forgotten.
 */
export async function signOut({ callbackUrl = SIGN_IN_PATH }: SignOutInput = {}): Promise<{ url: string }> {
  const csrfToken = await getCsrfToken();
  const body = await api.postForm<{ url?: unknown } | undefined>(
    `${AUTH_BASE_PATH}/signout`,
    { csrfToken, callbackUrl, json: 'true' },
    { headers: RETURN_REDIRECT_HEADER },
  );
  clearCsrfToken();
  const url = typeof body?.url === 'string' ? body.url : callbackUrl;
  try {
    const parsed = new URL(url, window.location.origin);
    if (parsed.origin === window.location.origin) return { url: parsed.pathname + parsed.search + parsed.hash };
  } catch {
    // Fall through to the callback URL.
  }
  return { url: callbackUrl };
}

/** Signs out, tells other tabs, and loads the sign-in page (a full load drops every cache). */
export function useSignOut() {
  return useMutation({
    mutationFn: signOut,
    onSuccess: ({ url }) => {
      notifySessionChange('signout');
      browserLocation.assign(url);
    },
  });
}
