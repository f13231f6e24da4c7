import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { normalizeFunctionResult } from '../lib/normalize';
import { functionResultKeys } from './keys';
import type { FunctionResult } from './types';

/** Said when a result becomes (or stops being) a benchmark (spec §9). */
export const BENCHMARK_SET_MESSAGE = 'Submission set as benchmark.';

/** Said when it could not (spec §9). */
export const BENCHMARK_FAILED_MESSAGE = 'Failed to set as benchmark.';

/** What {@link setBenchmark} takes. */
export interface SetBenchmarkInput {
  functionResultId: string;
  /** The submission the result belongs to, whose cached result is updated. */
  submissionId: string;
  isBenchmark: boolean;
}

/**
 * Marks a result as a benchmark, one the AI learns the teacher's grading from, or unmarks it
 * (`POST db/rubricFeedbackFunctionResult/update` `{functionResultId, data: {isBenchmark}}`; grade
 * results too). Resolves to the result as the server now has it, or null when it sent none.
 */
export async function setBenchmark({ functionResultId, isBenchmark }: SetBenchmarkInput): Promise<FunctionResult | null> {
  const data = await api.post<{ functionResult?: unknown } | undefined>('/api/v1/db/rubricFeedbackFunctionResult/update', {
    functionResultId,
    data: { isBenchmark },
  });
  return data?.functionResult ? normalizeFunctionResult(data.functionResult) : null;
}

/**
 * Sets a result's benchmark flag: the switch moves at once and moves back if the call fails; the
 * result is fetched again either way. `onChanged` runs after a change is saved (the page refreshes
 * the assignment, whose results it lists).
 */
export function useSetBenchmark(onChanged?: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setBenchmark,
    onMutate: async ({ submissionId, isBenchmark }) => {
      const queryKey = functionResultKeys.detail(submissionId);
      await queryClient.cancelQueries({ queryKey });
      const before = queryClient.getQueryData<FunctionResult>(queryKey);
      if (before) queryClient.setQueryData<FunctionResult>(queryKey, { ...before, isBenchmark });
      return { before };
    },
    onError: (_error, { submissionId, isBenchmark }, context) => {
      const queryKey = functionResultKeys.detail(submissionId);
      const now = queryClient.getQueryData<FunctionResult>(queryKey);
      if (now && context?.before) queryClient.setQueryData<FunctionResult>(queryKey, { ...now, isBenchmark: !isBenchmark });
    },
    onSuccess: (saved, { submissionId }) => {
      if (saved) queryClient.setQueryData(functionResultKeys.detail(submissionId), saved);
      onChanged?.();
    },
    onSettled: (_saved, _error, { submissionId }) => queryClient.invalidateQueries({ queryKey: functionResultKeys.detail(submissionId) }),
  });
}
