import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ReaderFlags } from '../../../lib/submission-files';
import type { AssignmentQueryKey } from './keys';
import { normalizeSubmissions } from './normalize';
import type { AssignmentType, Submission } from './types';

/** What `db/assignment/update-submissions` takes; the reader flags line up with `submissions`. */
export interface AddSubmissionsInput extends ReaderFlags {
  assignmentId: string;
  /**
   * The files, in order: an uploaded one with its location, one that could not be uploaded
   * (empty, too large, refused) with the reason instead, kept as a failed row.
   */
  submissions: ({ name: string; location: string } | { name: string; error: string })[];
  submissionRole: 'teacher';
  type: AssignmentType;
  isHandWritten: boolean;
}

/** Records uploaded files as submissions (`POST db/assignment/update-submissions`). */
export async function addSubmissions(input: AddSubmissionsInput): Promise<Submission[]> {
  const data = await api.post<{ submissions?: unknown }>('/api/v1/db/assignment/update-submissions', input);
  return normalizeSubmissions(data?.submissions);
}

/** Records uploaded files as submissions and refreshes the assignment that lists them. */
export function useAddSubmissions(assignmentQueryKey: AssignmentQueryKey) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addSubmissions,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: assignmentQueryKey }),
  });
}
