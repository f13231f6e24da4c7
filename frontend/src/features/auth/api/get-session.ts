import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Base path of the NextAuth-compatible session provider (spec §9). */
export const AUTH_BASE_PATH = '/api/auth';

/** The signed-in user as the session carries it. */
export interface SessionUser {
  id: string;
  name?: string | null;
  email?: string | null;
  image?: string | null;
  teamId?: string | null;
}

/** A session: the user and when it expires (ISO 8601). */
export interface Session {
  user: SessionUser;
  expires: string;
}

/** Cache key of the session. */
export const SESSION_QUERY_KEY = ['auth', 'session'] as const;

function isSession(value: unknown): value is Session {
  if (typeof value !== 'object' || value === null) return false;
  const user = (value as { user?: unknown }).user;
  return typeof user === 'object' && user !== null;
}

/**
 * Fetches the session: the session object, or null when signed out (`{}`). A failed fetch is
 * logged and counts as signed out (spec §8), so this never rejects except when aborted.
 */
export async function getSession(options: { signal?: AbortSignal } = {}): Promise<Session | null> {
  try {
    const body = await api.getRaw<unknown>(`${AUTH_BASE_PATH}/session`, options);
    return isSession(body) ? body : null;
  } catch (err) {
    if (options.signal?.aborted) throw err;
    console.error('[markwell] session fetch failed', err);
    return null;
  }
}

/** Query options for the session. Refetching on focus is done by SessionProvider itself. */
export function sessionQueryOptions() {
  return queryOptions({
    queryKey: SESSION_QUERY_KEY,
    queryFn: ({ signal }) => getSession({ signal }),
    refetchOnWindowFocus: false,
    retry: false,
  });
}

/** The raw session query; most code wants `useSession` instead. */
export function useSessionQuery() {
  return useQuery(sessionQueryOptions());
}
