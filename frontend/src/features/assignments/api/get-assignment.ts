import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { assignmentKeys } from './keys';
import type { Assignment } from './types';

/** An assignment with its per-submission results (results are shown by a later release). */
export interface AssignmentWithResults {
  assignment: Assignment;
  functionResults: unknown[];
  /** The submissions with their reading status, as sent; the submissions feature reads them. */
  submissions: unknown[];
}

/** Fetches an assignment (`POST db/assignment/get`); a foreign or unknown id rejects with 404. */
export async function getAssignment(
  assignmentId: string,
  options: { signal?: AbortSignal } = {},
): Promise<AssignmentWithResults> {
  const data = await api.post<Partial<AssignmentWithResults>>('/api/v1/db/assignment/get', { assignmentId }, options);
  if (!data?.assignment) throw new Error('The server sent no assignment');
  return {
    assignment: { ...data.assignment, submissions: data.assignment.submissions ?? [] },
    functionResults: data.functionResults ?? [],
    submissions: Array.isArray(data.submissions) ? data.submissions : [],
  };
}

/** Query options for one assignment. */
export function assignmentQueryOptions(assignmentId: string) {
  return queryOptions({
    queryKey: assignmentKeys.detail(assignmentId),
    queryFn: ({ signal }) => getAssignment(assignmentId, { signal }),
  });
}

/** One assignment and its results. */
export function useAssignment(assignmentId: string) {
  return useQuery(assignmentQueryOptions(assignmentId));
}
