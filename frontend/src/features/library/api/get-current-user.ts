import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { CURRENT_USER_QUERY_KEY } from './keys';

/**
 * The signed-in teacher (`GET /api/v1/db/user/get`), read for the team id that team operations
 * carry. It shares the app-wide `['user']` cache entry (the whole user object).
 */

/** The part of the user the library reads. */
export interface CurrentUser {
  _id: string;
  team: { _id: string; name: string };
}

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

/** The current team's id, from the cache or fetched on demand. */
export async function fetchTeamId(queryClient: QueryClient): Promise<string> {
  const user = await queryClient.ensureQueryData(currentUserQueryOptions());
  return user.team._id;
}
