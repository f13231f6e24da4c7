import { useQuery, useQueryClient, type Query } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode } from 'react';
import { clearCsrfToken } from '../../../lib/api-client';
import { forgetRevalidated } from '../../../lib/revalidated-query';
import { SESSION_QUERY_KEY, sessionQueryOptions } from '../api/get-session';
import { onSessionChange } from './broadcast';

/** Props for {@link SessionProvider}. */
export interface SessionProviderProps {
  children: ReactNode;
  /**
   * Polls the session every this many seconds while the tab is visible; 0 turns polling off.
   * Defaults to `VITE_SESSION_POLL_SECONDS`, or off when that is unset.
   */
  refetchInterval?: number;
  /** Refetches the session whenever the tab becomes visible (spec §9: on by default). */
  refetchOnWindowFocus?: boolean;
}

/** The polling interval configured at build time, in seconds (0 when unset or invalid). */
export function sessionPollSecondsFromEnv(): number {
  const seconds = Number(import.meta.env.VITE_SESSION_POLL_SECONDS);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
}

function isSessionQuery(query: Query): boolean {
  return query.queryKey[0] === SESSION_QUERY_KEY[0] && query.queryKey[1] === SESSION_QUERY_KEY[1];
}

/**
 * Keeps the session fresh (spec §4): refetches it when the tab becomes visible, when another tab
 * signals a sign-in or sign-out, and on an optional polling interval. When the signed-in user
 * changes, cached data of the previous user is dropped and the cached CSRF token forgotten.
 */
export function SessionProvider({
  children,
  refetchInterval = sessionPollSecondsFromEnv(),
  refetchOnWindowFocus = true,
}: SessionProviderProps) {
  const queryClient = useQueryClient();
  const { data, isPending, refetch } = useQuery({
    ...sessionQueryOptions(),
    refetchInterval: refetchInterval > 0 ? refetchInterval * 1000 : false,
  });

  useEffect(() => {
    if (!refetchOnWindowFocus) return undefined;
    const onVisibilityChange = () => {
      if (document.visibilityState === 'visible') void refetch();
    };
    document.addEventListener('visibilitychange', onVisibilityChange);
    return () => document.removeEventListener('visibilitychange', onVisibilityChange);
  }, [refetch, refetchOnWindowFocus]);

  useEffect(() => onSessionChange(() => void refetch()), [refetch]);

  // undefined: not known yet; null: signed out; otherwise the user's id.
  const userId = isPending ? undefined : (data?.user.id ?? null);
  const previousUserId = useRef<string | null | undefined>(undefined);
  useEffect(() => {
    if (userId === undefined) return;
    const previous = previousUserId.current;
    previousUserId.current = userId;
    if (previous === undefined || previous === userId) return;
    clearCsrfToken();
    forgetRevalidated();
    const otherQueries = { predicate: (query: Query) => !isSessionQuery(query) };
    if (userId === null) queryClient.removeQueries(otherQueries);
    else void queryClient.invalidateQueries(otherQueries);
  }, [userId, queryClient]);

  return children;
}
