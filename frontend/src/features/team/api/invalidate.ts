import type { QueryClient } from '@tanstack/react-query';
import { CURRENT_USER_QUERY_KEY } from '../../../lib/current-user';
import { MEMBERS_QUERY_KEY } from './get-members';

/** Refetches what a change to the team's membership affects: the members and the current user. */
export function invalidateTeam(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: MEMBERS_QUERY_KEY }),
    queryClient.invalidateQueries({ queryKey: CURRENT_USER_QUERY_KEY }),
  ]).then(() => undefined);
}
