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
  /**
   * True when a light read left out the results and submissions of a large class (more than 300):
   * its table reads them a page at a time and its summary on request.
   */
  partial?: boolean;
}

/** Fetches an assignment (`POST db/assignment/get`); a foreign or unknown id rejects with 404. */
export async function getAssignment(
  assignmentId: string,
  options: { signal?: AbortSignal; light?: boolean } = {},
): Promise<AssignmentWithResults> {
  const { light, ...rest } = options;
  const data = await api.post<Partial<AssignmentWithResults>>('/api/v1/db/assignment/get', light ? { assignmentId, light } : { assignmentId }, rest);
  if (!data?.assignment) throw new Error('The server sent no assignment');
  return {
    assignment: { ...data.assignment, submissions: data.assignment.submissions ?? [] },
    functionResults: data.functionResults ?? [],
    submissions: Array.isArray(data.submissions) ? data.submissions : [],
    ...(data.partial === true ? { partial: true } : {}),
  };
}

/** Query options for one assignment. */
export function assignmentQueryOptions(assignmentId: string) {
  return queryOptions({
    queryKey: assignmentKeys.detail(assignmentId),
    queryFn: ({ signal }) => getAssignment(assignmentId, { signal }),
  });
}

/**
 * The assignment page's read: light, so a large class's results are not all loaded on open. Its
 * own key sits under {@link assignmentKeys.detail}, so invalidating that refreshes it too, and the
 * review screen's full read is never replaced by a partial one.
 */
export function assignmentPageQueryOptions(assignmentId: string) {
  return queryOptions({
    queryKey: [...assignmentKeys.detail(assignmentId), 'page'] as const,
    queryFn: ({ signal }) => getAssignment(assignmentId, { signal, light: true }),
  });
}

/** One assignment and its results. */
export function useAssignment(assignmentId: string) {
  return useQuery(assignmentQueryOptions(assignmentId));
}
