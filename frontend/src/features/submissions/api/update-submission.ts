import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { submissionKeys, type AssignmentQueryKey } from './keys';
import { normalizeSubmission } from './normalize';
import type { Submission } from './types';

/** What `db/submission/update` takes: the id and the fields to change. */
export interface SubmissionUpdate {
  submissionId: string;
  submission: { name?: string; studentName?: string; studentEmail?: string };
}

/** Renames a submission or sets its student (`POST db/submission/update`). */
export async function updateSubmission(input: SubmissionUpdate): Promise<Submission> {
  const data = await api.post<{ submission?: unknown }>('/api/v1/db/submission/update', input);
  const submission = normalizeSubmission(data?.submission);
  if (!submission) throw new Error('The server sent no submission');
  return submission;
}

/** Updates a submission and refreshes it and the assignment that lists it. */
export function useUpdateSubmission(assignmentQueryKey: AssignmentQueryKey) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSubmission,
    onSuccess: (_submission, input) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: assignmentQueryKey }),
        queryClient.invalidateQueries({ queryKey: submissionKeys.detail(input.submissionId) }),
      ]),
  });
}
