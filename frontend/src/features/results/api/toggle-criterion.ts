import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { addPoints, answerAt, toggleCriterion as flip } from '../lib/answers';
import { functionResultKeys } from './keys';
import type { FunctionResult } from './types';

/** What `db/gradeFunction/toggleCriterion` takes. */
export interface ToggleCriterionInput {
  /** The grade result's `_id`. */
  gradeFunctionId: string;
  /** The answer's path (`[0, 1]` = question 1, part b). */
  questionIndexPath: number[];
  criterionIndex: number;
  /** The criterion as the assignment has it (sent as the spec says; the server uses its own points). */
  questionsCriterion: { description: string; points: number };
}

/**
 * Flips one criterion of a grade result (`POST db/gradeFunction/toggleCriterion`). Resolves to the
 * change of the total: plus the criterion's points when it is now met, minus them when not.
 */
export async function toggleCriterion(input: ToggleCriterionInput, { keepalive = false }: { keepalive?: boolean } = {}): Promise<number> {
  const data = await api.post<{ totalPointsChange?: unknown } | undefined>('/api/v1/db/gradeFunction/toggleCriterion', input, keepalive ? { keepalive } : {});
  const change = data?.totalPointsChange;
  if (typeof change !== 'number' || !Number.isFinite(change)) throw new Error('The server sent no change of points');
  return change;
}

/** What the toggle hook takes: the call's input and the submission whose cached result it changes. */
export interface ToggleCriterionVariables extends ToggleCriterionInput {
  submissionId: string;
  /** Sent as the page is hidden or left: the request outlives the page (fetch `keepalive`). */
  keepalive?: boolean;
}

const TOGGLE_KEY = ['functionResult', 'toggleCriterion'] as const;

/**
 * Toggles a criterion, optimistically: the box and the total move at once by the criterion's
 * points and the result shows as reviewed (the server marks it so: grade-all then skips it); the
 * server's `totalPointsChange` then corrects the points if they differ, and a failure flips the box
 * back. Once no toggle is pending the result is fetched again and `onChanged` runs (the review
 * screen refreshes the assignment, so the submissions table says Reviewed too).
 */
export function useToggleCriterion(onChanged?: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: TOGGLE_KEY,
    mutationFn: ({ submissionId: _submissionId, keepalive, ...input }: ToggleCriterionVariables) => toggleCriterion(input, { keepalive }),
    onMutate: async ({ submissionId, questionIndexPath, criterionIndex, questionsCriterion }) => {
      const queryKey = functionResultKeys.detail(submissionId);
      await queryClient.cancelQueries({ queryKey });
      const result = queryClient.getQueryData<FunctionResult>(queryKey);
      const wasMet = answerAt(result?.answers ?? null, questionIndexPath)?.grade.criteria[criterionIndex] === true;
      const expected = wasMet ? -questionsCriterion.points : questionsCriterion.points;
      // A tick makes the result the teacher's: the server marks it reviewed, and so does the cache.
      if (result) queryClient.setQueryData(queryKey, { ...flip(result, questionIndexPath, criterionIndex, expected), status: 'reviewed' });
      return { expected };
    },
    onSuccess: (change, { submissionId, questionIndexPath }, context) => {
      const queryKey = functionResultKeys.detail(submissionId);
      const result = queryClient.getQueryData<FunctionResult>(queryKey);
      if (result && change !== context.expected) queryClient.setQueryData(queryKey, addPoints(result, questionIndexPath, change - context.expected));
    },
    onError: (_error, { submissionId, questionIndexPath, criterionIndex }, context) => {
      const queryKey = functionResultKeys.detail(submissionId);
      const result = queryClient.getQueryData<FunctionResult>(queryKey);
      if (result && context) queryClient.setQueryData(queryKey, flip(result, questionIndexPath, criterionIndex, -context.expected));
    },
    onSettled: async (_change, _error, { submissionId }) => {
      // Another toggle still on its way would be undone by a fetch that started before it landed.
      if (queryClient.isMutating({ mutationKey: TOGGLE_KEY }) > 1) return;
      await queryClient.invalidateQueries({ queryKey: functionResultKeys.detail(submissionId) });
      onChanged?.();
    },
  });
}
