import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { fetchTeamId } from '../../../lib/current-user';
import { invalidateLibrary } from './invalidate';

/** Deletes an assignment with its submissions and results (`POST /api/v1/db/team/delete-assignment`). */
export async function deleteAssignment({ teamId, assignmentId }: { teamId: string; assignmentId: string }): Promise<void> {
  await api.post('/api/v1/db/team/delete-assignment', { teamId, assignmentId });
}

/** Deletes an assignment of the current team and refreshes the library. */
export function useDeleteAssignment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ assignmentId }: { assignmentId: string }) =>
      deleteAssignment({ teamId: await fetchTeamId(queryClient), assignmentId }),
    onSuccess: () => invalidateLibrary(queryClient),
  });
}
