import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateTeam } from './invalidate';

/** Cancels a pending invitation; its link stops working. */
export async function cancelInvite({ inviteId }: { inviteId: string }): Promise<void> {
  await api.post('/api/v1/db/team/cancel-invite', { inviteId });
}

/** Cancels an invitation and refreshes the team. */
export function useCancelInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelInvite,
    onSuccess: () => invalidateTeam(queryClient),
  });
}
