import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { fetchTeamId } from '../../../lib/current-user';
import { invalidateRubricLists } from './invalidate';
import { rubricKeys } from './keys';

/** Deletes a rubric of the team (`POST /api/v1/db/team/delete-rubric`). */
export async function deleteRubric({ teamId, rubricId }: { teamId: string; rubricId: string }): Promise<void> {
  await api.post('/api/v1/db/team/delete-rubric', { teamId, rubricId });
}

/** Deletes a rubric (looking up the team id first) and refreshes every list of rubrics. */
export function useDeleteRubric() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ rubricId }: { rubricId: string }) =>
      deleteRubric({ teamId: await fetchTeamId(queryClient), rubricId }),
    onSuccess: (_data, { rubricId }) => {
      // The editor showing it is still mounted and about to leave: mark the entry stale without
      // refetching it now (a refetch would 404 under the editor's feet).
      void queryClient.invalidateQueries({ queryKey: rubricKeys.detail(rubricId), refetchType: 'none' });
      void invalidateRubricLists(queryClient);
    },
  });
}
