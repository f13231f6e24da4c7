import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { fetchTeamId } from '../../../lib/current-user';
import { invalidateLibrary } from './invalidate';

/** Deletes a rubric (`POST /api/v1/db/team/delete-rubric`). */
export async function deleteRubric({ teamId, rubricId }: { teamId: string; rubricId: string }): Promise<void> {
  await api.post('/api/v1/db/team/delete-rubric', { teamId, rubricId });
}

/** Deletes a rubric of the current team and refreshes the library and the rubric list. */
export function useDeleteRubric() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ rubricId }: { rubricId: string }) =>
      deleteRubric({ teamId: await fetchTeamId(queryClient), rubricId }),
    onSuccess: () => invalidateLibrary(queryClient, { rubrics: true }),
  });
}
