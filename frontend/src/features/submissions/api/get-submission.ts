import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { submissionKeys } from './keys';
import { normalizeSubmissionWithText } from './normalize';
import type { SubmissionWithText } from './types';

/** Fetches one submission with its full text (`POST db/submission/get`); a foreign id is 404. */
export async function getSubmission(
  submissionId: string,
  options: { signal?: AbortSignal } = {},
): Promise<SubmissionWithText> {
  const data = await api.post<{ submission?: unknown }>('/api/v1/db/submission/get', { submissionId }, options);
  const submission = normalizeSubmissionWithText(data?.submission);
  if (!submission) throw new Error('The server sent no submission');
  return submission;
}

/** Query options for one submission's text. */
export function submissionQueryOptions(submissionId: string) {
  return queryOptions({
    queryKey: submissionKeys.detail(submissionId),
    queryFn: ({ signal }) => getSubmission(submissionId, { signal }),
  });
}

/** One submission with its text. */
export function useSubmission(submissionId: string) {
  return useQuery(submissionQueryOptions(submissionId));
}
