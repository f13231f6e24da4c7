import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { readAssignmentGrading } from '../lib/normalize';
import type { ClassSummary, CriterionBreakdown } from './types';

/** Said when the class summary cannot be made (spec §8). */
export const SUMMARY_FAILED_MESSAGE = 'Failed to generate summary.';

/** What {@link generateSummary} takes: the per-criterion figures the page computed. */
export interface GenerateSummaryInput {
  assignmentId: string;
  criteriaBreakdown: CriterionBreakdown[];
}

/**
 * Asks the AI what the class met and missed (`POST ai-assist/generate-summary`); the server keeps
 * the summary on the assignment too.
 */
export async function generateSummary(input: GenerateSummaryInput): Promise<ClassSummary> {
  const data = await api.post<{ classSummary?: unknown } | undefined>('/api/v1/ai-assist/generate-summary', input);
  const summary = readAssignmentGrading({ classSummary: data?.classSummary }).classSummary;
  if (!summary) throw new Error('The server sent no summary');
  return summary;
}

/** Generates the class summary and refreshes the assignment (`assignmentQueryKey`) that stores it. */
export function useGenerateSummary(assignmentQueryKey: QueryKey) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: generateSummary,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: assignmentQueryKey }),
  });
}
