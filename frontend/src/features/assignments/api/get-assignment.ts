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
  return { assignment, functionResults: data.functionResults ?? [], submissions: list(data.submissions) };
}

/** Fetches an assignment whole (`POST db/assignment/get`); a foreign or unknown id rejects with 404. */
export async function getAssignment(
  assignmentId: string,
  options: { signal?: AbortSignal } = {},
): Promise<AssignmentWithResults> {
  return assignmentFromAnswer(await api.post<AssignmentAnswer>('/api/v1/db/assignment/get', { assignmentId }, options));
}

/** Query options for one assignment: each fetch sends the version it holds, so a poll of an unchanged class is a 304. */
export function assignmentQueryOptions(assignmentId: string) {
  const queryKey = assignmentKeys.detail(assignmentId);
  return queryOptions({
    queryKey,
    queryFn: ({ signal }) =>
      revalidatedFetch<AssignmentAnswer, AssignmentWithResults>(
        queryKey,
        (since) =>
          api.post<Revalidated<AssignmentAnswer>>(
            '/api/v1/db/assignment/get',
            since ? { assignmentId, since } : { assignmentId },
            { signal, headers: ifNoneMatch(since) },
          ),
        assignmentFromAnswer,
      ),
  });
}

/** One assignment and its results. */
export function useAssignment(assignmentId: string) {
  return useQuery(assignmentQueryOptions(assignmentId));
}
