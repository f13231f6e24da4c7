import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { ifNoneMatch, mergeRows, revalidatedFetch, type Revalidated } from '../../../lib/revalidated-query';
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

/** `db/assignment/get`'s answer: the whole class, or with `delta` only what changed since `since`. */
interface AssignmentAnswer extends Partial<AssignmentWithResults> {
  version?: string;
  delta?: boolean;
  deletedSubmissionIds?: string[];
  deletedFunctionResultIds?: string[];
}

const list = (rows: unknown): unknown[] => (Array.isArray(rows) ? rows : []);

/**
 * The query's data from an answer: the whole class, or `previous` with a delta merged in (rows
 * replaced by `_id`, new ones appended, deleted ones dropped; the assignment replaced).
 */
export function assignmentFromAnswer(data: AssignmentAnswer | undefined, previous?: AssignmentWithResults): AssignmentWithResults {
  if (!data?.assignment) throw new Error('The server sent no assignment');
  const assignment = { ...data.assignment, submissions: data.assignment.submissions ?? [] };
  if (data.delta && previous) {
    return {
      assignment,
      functionResults: mergeRows(previous.functionResults, list(data.functionResults), data.deletedFunctionResultIds ?? []),
      submissions: mergeRows(previous.submissions, list(data.submissions), data.deletedSubmissionIds ?? []),
    };
  }
  return {
    assignment,
    functionResults: data.functionResults ?? [],
    submissions: list(data.submissions),
    ...(data.partial === true ? { partial: true } : {}),
  };
}

/** Fetches an assignment whole (`POST db/assignment/get`); a foreign or unknown id rejects with 404. */
export async function getAssignment(
  assignmentId: string,
  options: { signal?: AbortSignal; light?: boolean } = {},
): Promise<AssignmentWithResults> {
  const { light, ...rest } = options;
  return assignmentFromAnswer(
    await api.post<AssignmentAnswer>('/api/v1/db/assignment/get', light ? { assignmentId, light } : { assignmentId }, rest),
  );
}

/** A query's fetch of the assignment that sends the version it holds, so a poll of an unchanged class is a 304. */
function revalidatedAssignment(queryKey: readonly unknown[], assignmentId: string, light: boolean, signal: AbortSignal) {
  return revalidatedFetch<AssignmentAnswer, AssignmentWithResults>(
    queryKey,
    (since) =>
      api.post<Revalidated<AssignmentAnswer>>(
        '/api/v1/db/assignment/get',
        { assignmentId, ...(since ? { since } : {}), ...(light ? { light } : {}) },
        { signal, headers: ifNoneMatch(since) },
      ),
    assignmentFromAnswer,
  );
}

/** Query options for one assignment, the whole class. */
export function assignmentQueryOptions(assignmentId: string) {
  const queryKey = assignmentKeys.detail(assignmentId);
  return queryOptions({
    queryKey,
    queryFn: ({ signal }) => revalidatedAssignment(queryKey, assignmentId, false, signal),
  });
}

/**
 * The assignment page's read: light, so a large class's results are not all loaded on open. Its
 * own key sits under {@link assignmentKeys.detail}, so invalidating that refreshes it too, and the
 * review screen's full read is never replaced by a partial one.
 */
export function assignmentPageQueryOptions(assignmentId: string) {
  const queryKey = [...assignmentKeys.detail(assignmentId), 'page'] as const;
  return queryOptions({
    queryKey,
    queryFn: ({ signal }) => revalidatedAssignment(queryKey, assignmentId, true, signal),
  });
}

/** One assignment and its results. */
export function useAssignment(assignmentId: string) {
  return useQuery(assignmentQueryOptions(assignmentId));
}
