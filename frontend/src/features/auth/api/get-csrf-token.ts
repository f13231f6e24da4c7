import { getCsrfToken as getCachedCsrfToken } from '../../../lib/api-client';

/**
 * Fetches the CSRF token (`GET /api/auth/csrf`) through the API client, which caches it for every
 * write until the session changes. Rejects when no token can be had.
 *
 * There is deliberately no query hook for it: the token is renewed when a session begins or ends,
 * so a second cache would hand out a token the server no longer accepts.
 */
export async function getCsrfToken(): Promise<string> {
  const token = await getCachedCsrfToken();
  if (!token) throw new Error('No CSRF token');
  return token;
}
