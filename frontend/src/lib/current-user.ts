import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from './api-client';

/**
 * The signed-in teacher with their team (`GET /api/v1/db/user/get`). It lives in lib rather than
 * a feature because several features read it (the library's team name, the team page's owner
 * check, the team id that team operations carry) and features do not import each other. They all
 * share the one `['user']` cache entry, so it is fetched once.
 */

/** A folder in the team library: a name and the ids of the assignments it holds. */
export interface TeamFolder {
  _id: string;
  name: string;
  assignments: string[];
}

/** The user's team as `user/get` returns it. */
export interface UserTeam {
  _id: string;
  name: string;
  ownerId: string;
  assignments: { _id: string }[];
  rubrics: { _id: string }[];
  folders: TeamFolder[];
}

/** The signed-in user (spec §3 "User": team, functions). */
export interface CurrentUser {
  _id: string;
  name: string;
  email: string;
  image?: string | null;
  team: UserTeam;
  functions: unknown[];
}

/** Cache key of the current user; team mutations invalidate it. */
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

/** The current team's id, from the cache or fetched on demand (team operations carry it). */
export async function fetchTeamId(queryClient: QueryClient): Promise<string> {
  const user = await queryClient.ensureQueryData(currentUserQueryOptions());
  return user.team._id;
}
