import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Rubric, RubricInput } from '../types';
import { invalidateRubricLists } from './invalidate';
import { rubricKeys } from './keys';

/**
 * Saves a new rubric (`POST /api/v1/db/rubric/put`). The server validates it; a 400 carries the
 * message to show (e.g. 'Criterion description cannot be empty').
 */
export async function createRubric(input: RubricInput): Promise<Rubric> {
  const data = await api.post<{ rubric: Rubric }>('/api/v1/db/rubric/put', input);
  return data.rubric;
}

/** Creates a rubric and refreshes every list of rubrics. */
export function useCreateRubric() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRubric,
    onSuccess: (rubric) => {
      queryClient.setQueryData(rubricKeys.detail(rubric._id), rubric);
      void invalidateRubricLists(queryClient);
    },
  });
}
