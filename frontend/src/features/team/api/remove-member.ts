import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateTeam } from './invalidate';

/** Removes a member from the team (owner only; others get 403). */
export async function removeMember({ userId }: { userId: string }): Promise<void> {
  await api.post('/api/v1/db/team/remove-member', { userId });
}

/** Removes a member and refreshes the team. */
export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeMember,
    onSuccess: () => invalidateTeam(queryClient),
  });
}
