import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Rubric, RubricInput } from '../types';
import { invalidateRubricLists } from './invalidate';
import { rubricKeys } from './keys';

/** What {@link updateRubric} takes: the rubric's id and its new name and criteria. */
export interface UpdateRubricInput extends RubricInput {
  rubricId: string;
}

/** Saves changes to a rubric (`POST /api/v1/db/rubric/update`); validated like rubric/put. */
export async function updateRubric({ rubricId, name, criteria }: UpdateRubricInput): Promise<Rubric> {
  const data = await api.post<{ rubric: Rubric }>('/api/v1/db/rubric/update', { rubricId, name, criteria });
  return data.rubric;
}

/** Updates a rubric and refreshes every list of rubrics. */
export function useUpdateRubric() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateRubric,
    onSuccess: (rubric) => {
      queryClient.setQueryData(rubricKeys.detail(rubric._id), rubric);
      void invalidateRubricLists(queryClient);
    },
  });
}
