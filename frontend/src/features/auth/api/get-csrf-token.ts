import { queryOptions, useQuery } from '@tanstack/react-query';
import { getCsrfToken as getCachedCsrfToken } from '../../../lib/api-client';

/** Cache key of the CSRF token. */
export const CSRF_QUERY_KEY = ['auth', 'csrf'] as const;

/**
 * Fetches the CSRF token (`GET /api/auth/csrf`) through the API client, which caches it for every
 * write. Rejects when no token can be had.
 */
export async function getCsrfToken(): Promise<string> {
  const token = await getCachedCsrfToken();
  if (!token) throw new Error('No CSRF token');
  return token;
}

/** Query options for the CSRF token; it lasts as long as its cookie, so it never goes stale. */
export function csrfTokenQueryOptions() {
  return queryOptions({
    queryKey: CSRF_QUERY_KEY,
    queryFn: getCsrfToken,
    staleTime: Infinity,
  });
}

/** The CSRF token for form posts to the session provider. */
export function useCsrfToken() {
  return useQuery(csrfTokenQueryOptions());
}
