import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Rubric } from '../../../lib/rubrics';
import { libraryKeys, RUBRIC_LIST_KEY } from './keys';

/** The longest assignment sheet the server takes, in characters. */
export const MAX_SHEET_CHARS = 50_000;

/**
 * Asks the model for a rubric fitting an assignment sheet (`POST /api/v1/ai-assist/rubric-from-sheet`).
 * The server validates and saves it in the team's library before answering; a refusal carries the
 * message to show (e.g. 'Failed to generate rubric.').
 */
export async function createRubricFromSheet(assignmentText: string): Promise<Rubric> {
  const data = await api.post<{ rubric: Rubric }>('/api/v1/ai-assist/rubric-from-sheet', { assignmentText });
  return data.rubric;
}

/** Creates a rubric from a sheet and refreshes the lists that show rubrics. */
export function useRubricFromSheet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRubricFromSheet,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: RUBRIC_LIST_KEY });
      void queryClient.invalidateQueries({ queryKey: libraryKeys.all });
    },
  });
}
