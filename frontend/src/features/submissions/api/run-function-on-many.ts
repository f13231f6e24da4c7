import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { AssignmentQueryKey } from './keys';
import type { RunFunctionInput } from './types';

/** The toast once grading has started (spec §9). */
export const GRADING_STARTED_MESSAGE = 'Grading submissions! This should take 1-2 minutes.';

/**
 * Has the AI grade or annotate the given submissions (`POST lambda/runFunctionOnMany`): their
 * results move to the type's in-progress status at once and one job per submission is queued.
 * Resolves to the results as they now stand.
 */
export async function runFunctionOnMany(input: RunFunctionInput): Promise<unknown[]> {
  const data = await api.post<{ functionResults?: unknown }>('/api/v1/lambda/runFunctionOnMany', input);
  return Array.isArray(data?.functionResults) ? data.functionResults : [];
}

/**
 * Starts grading and refreshes the assignment, whose results are now in progress (so the page's
 * polling picks them up). `alsoInvalidate` names other queries the run changes (a review screen's
 * result). The mutation settles when the server has answered: the reads it refreshes follow on
 * their own, so a toast saying grading started (or the next batch of a year group) does not wait
 * for the class to be read again.
 */
export function useRunFunctionOnMany(assignmentQueryKey: AssignmentQueryKey, alsoInvalidate: AssignmentQueryKey[] = []) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runFunctionOnMany,
    onSuccess: () => {
      for (const queryKey of [assignmentQueryKey, ...alsoInvalidate]) void queryClient.invalidateQueries({ queryKey });
    },
  });
}
