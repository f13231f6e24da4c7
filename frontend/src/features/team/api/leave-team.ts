import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Leaves the team; the server gives the user a fresh team of their own. */
export async function leaveTeam(): Promise<void> {
  await api.post('/api/v1/db/team/leave', {});
}

/**
 * Leaves the team. Every cached query is invalidated, not just the team's: the user now belongs
 * to another team, so everything team-scoped (library, session team id) has changed.
 */
export function useLeaveTeam() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: leaveTeam,
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
