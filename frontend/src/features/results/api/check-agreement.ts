import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** How many benchmark results an agreement check needs. */
export const MIN_BENCHMARKS = 3;

/** Why "Check agreement" is unavailable with fewer benchmarks (the server's 400 says the same). */
export const NEED_BENCHMARKS_MESSAGE = 'Mark at least 3 results as benchmarks to check agreement.';

/**
 * Starts the agreement check of an assignment (`POST db/assignment/check-agreement`): the AI
 * regrades each benchmark with the others as examples. Resolves to the new status, `running`.
 */
export async function checkAgreement(assignmentId: string): Promise<string> {
  const data = await api.post<{ agreementStatus?: string } | undefined>('/api/v1/db/assignment/check-agreement', { assignmentId });
  return data?.agreementStatus ?? 'running';
}

/** Starts an agreement check and refreshes the assignment (`assignmentQueryKey`), whose page then polls. */
export function useCheckAgreement(assignmentQueryKey: QueryKey) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: checkAgreement,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: assignmentQueryKey }),
  });
}
