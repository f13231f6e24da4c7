import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { studentKeys } from './keys';
import { isBeingRead, type StudentSubmission } from './types';

/** How often the result page asks again while the work is being read. */
export const RESULT_POLL_MS = 2000;

/**
 * Fetches one submission with its text (`POST db/submission/get-view-only`), authorised by the
 * student's view token (or by a signed-in teacher of the team when there is none).
 */
export async function getSubmissionViewOnly(
  submissionId: string,
  viewToken: string | null,
  options: { signal?: AbortSignal } = {},
): Promise<StudentSubmission> {
  const body = viewToken ? { submissionId, viewToken } : { submissionId };
  const data = await api.post<{ submission?: StudentSubmission } | undefined>(
    '/api/v1/db/submission/get-view-only',
    body,
    options,
  );
  if (!data?.submission) throw new Error('The server sent no submission');
  return data.submission;
}

/** Query options for a student's submission, polled every 2 s while it is queued or being read. */
export function submissionViewOnlyQueryOptions(submissionId: string, viewToken: string | null) {
  return queryOptions({
    queryKey: studentKeys.submission(submissionId),
    queryFn: ({ signal }) => getSubmissionViewOnly(submissionId, viewToken, { signal }),
    refetchInterval: (query) => (isBeingRead(query.state.data) ? RESULT_POLL_MS : false),
    staleTime: 0,
  });
}

/** A student's submission, kept fresh while it is being read. */
export function useSubmissionViewOnly(submissionId: string, viewToken: string | null) {
  return useQuery(submissionViewOnlyQueryOptions(submissionId, viewToken));
}
