import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { submissionKeys, type AssignmentQueryKey } from './keys';
import type { AssignmentType } from './types';

/** What `db/assignment/delete-submissions-and-function-results` takes. */
export interface DeleteSubmissionsInput {
  assignmentId: string;
  submissionIds: string[];
  frIds: string[];
  type: AssignmentType;
}

/** Deletes several submissions and their results; resolves to how many were deleted. */
export async function deleteSubmissions(input: DeleteSubmissionsInput): Promise<number> {
  const data = await api.post<{ deleted?: number }>('/api/v1/db/assignment/delete-submissions-and-function-results', input);
  return data?.deleted ?? 0;
}

/** Deletes several submissions and refreshes the assignment that listed them. */
export function useDeleteSubmissions(assignmentQueryKey: AssignmentQueryKey) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSubmissions,
    onSuccess: (_count, input) => {
      for (const id of input.submissionIds) queryClient.removeQueries({ queryKey: submissionKeys.detail(id) });
      return queryClient.invalidateQueries({ queryKey: assignmentQueryKey });
    },
  });
}
