/** Where sign-in leads when no usable callback URL was given. */
export const DEFAULT_CALLBACK_PATH = '/library';

/** The sign-in page's path. */
export const SIGN_IN_PATH = '/signin';

/**
 * Returns the in-app path to go to after sign-in. Only same-origin addresses are honoured: a
 * relative path (`/team?x=1`) as is, an absolute URL on this origin as its path; anything else
 * (another site, `//host`, `javascript:`, the sign-in page itself) gives {@link DEFAULT_CALLBACK_PATH}.
 */
export function safeCallbackPath(raw: string | null | undefined): string {
  if (!raw) return DEFAULT_CALLBACK_PATH;
  const relative = raw.startsWith('/');
  if (!relative && !/^https?:\/\//i.test(raw)) return DEFAULT_CALLBACK_PATH;
  let url: URL;
  try {
    url = new URL(raw, window.location.origin);
  } catch {
    return DEFAULT_CALLBACK_PATH;
  }
  if (url.origin !== window.location.origin) return DEFAULT_CALLBACK_PATH;
  if (url.pathname === SIGN_IN_PATH || url.pathname.startsWith(`${SIGN_IN_PATH}/`)) return DEFAULT_CALLBACK_PATH;
  return url.pathname + url.search + url.hash;
}

/** Builds `/signin?error=…&callbackUrl=…`, leaving out what is not given. */
export function signInPath({ error, callbackUrl }: { error?: string | null; callbackUrl?: string | null } = {}): string {
  const params = new URLSearchParams();
  if (error) params.set('error', error);
  if (callbackUrl) params.set('callbackUrl', callbackUrl);
  const query = params.toString();
  return query ? `${SIGN_IN_PATH}?${query}` : SIGN_IN_PATH;
}

/** The `error` query parameter of a URL (absolute or relative), or null. */
export function errorFromUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url, window.location.origin).searchParams.get('error');
  } catch {
    return null;
  }
}
