import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { submissionKeys, type AssignmentQueryKey } from './keys';
import type { AssignmentType } from './types';

/** What `db/assignment/delete-submission-and-function-result` takes; frId is null without a result. */
export interface DeleteSubmissionInput {
  assignmentId: string;
  submissionId: string;
  type: AssignmentType;
  frId: string | null;
}

/** Deletes one submission and its result; resolves to how many were deleted. */
export async function deleteSubmission(input: DeleteSubmissionInput): Promise<number> {
  const data = await api.post<{ deleted?: number }>('/api/v1/db/assignment/delete-submission-and-function-result', input);
  return data?.deleted ?? 0;
}

/** Deletes one submission and refreshes the assignment that listed it. */
export function useDeleteSubmission(assignmentQueryKey: AssignmentQueryKey) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSubmission,
    onSuccess: (_count, input) => {
      queryClient.removeQueries({ queryKey: submissionKeys.detail(input.submissionId) });
      return queryClient.invalidateQueries({ queryKey: assignmentQueryKey });
    },
  });
}
