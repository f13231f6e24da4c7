import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { studentKeys } from './keys';

/** The part of the assignment the result page shows. */
export interface ResultAssignment {
  _id: string;
  name: string;
  /** grade, feedback, rubric-feedback or prompt. */
  type?: string;
  /** True when students get the AI's feedback at once. */
  provideInstantFeedback?: boolean;
}

/**
 * Fetches the assignment of a student's result page (`POST db/assignment/get-view-only`),
 * authorised by the view token of one of its submissions.
 */
export async function getAssignmentViewOnly(
  assignmentId: string,
  viewToken: string | null,
  options: { signal?: AbortSignal } = {},
): Promise<ResultAssignment> {
  const body = viewToken ? { assignmentId, viewToken } : { assignmentId };
  const data = await api.post<{ assignment?: ResultAssignment } | undefined>(
    '/api/v1/db/assignment/get-view-only',
    body,
    options,
  );
  if (!data?.assignment) throw new Error('The server sent no assignment');
  return data.assignment;
}

/** Query options for the result page's assignment. */
export function assignmentViewOnlyQueryOptions(assignmentId: string, submissionId: string, viewToken: string | null) {
  return queryOptions({
    queryKey: studentKeys.resultAssignment(assignmentId, submissionId),
    queryFn: ({ signal }) => getAssignmentViewOnly(assignmentId, viewToken, { signal }),
  });
}

/** The result page's assignment (its name), asked for once `enabled`; the page works without it. */
export function useAssignmentViewOnly(
  assignmentId: string,
  submissionId: string,
  viewToken: string | null,
  enabled = true,
) {
  return useQuery({ ...assignmentViewOnlyQueryOptions(assignmentId, submissionId, viewToken), enabled });
}
