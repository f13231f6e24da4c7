import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/**
 * The signed-in teacher (`GET /api/v1/db/user/get`), read here only for the team id that team
 * operations carry. It shares the `['user']` cache entry (the whole user object) with the rest of
 * the app, so it is fetched once.
 */

/** The part of the user this feature reads. */
export interface CurrentUser {
  _id: string;
  name: string;
  email: string;
  team: { _id: string; name?: string };
}

/** Cache key of the current user, shared app-wide. */
export const CURRENT_USER_QUERY_KEY = ['user'] as const;

/** Fetches the signed-in user with their team. */
export async function getCurrentUser(options: { signal?: AbortSignal } = {}): Promise<CurrentUser> {
  const data = await api.get<{ user: CurrentUser }>('/api/v1/db/user/get', options);
  return data.user;
}

/** Query options for the current user. */
export function currentUserQueryOptions() {
  return queryOptions({
    queryKey: CURRENT_USER_QUERY_KEY,
    queryFn: ({ signal }) => getCurrentUser({ signal }),
  });
}

/** The signed-in user and their team. */
export function useCurrentUser() {
  return useQuery(currentUserQueryOptions());
}

/** The current team's id, from the cache or fetched on demand (for team operations). */
export async function fetchTeamId(queryClient: QueryClient): Promise<string> {
  const user = await queryClient.ensureQueryData(currentUserQueryOptions());
  return user.team._id;
}
