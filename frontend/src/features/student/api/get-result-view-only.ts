import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { studentKeys } from './keys';

/** How often the result page asks again while the work is being graded. */
export const GRADING_POLL_MS = 3000;

/** Statuses in which the AI is still working on a result. */
const IN_PROGRESS = ['grading', 'rubric-grading', 'annotating'];

/**
 * A student's function result as the view-only call returns it: the page reads its status and
 * hands the whole result (`raw`) to the result view the app composes.
 */
export interface StudentResult {
  status: string;
  raw: Record<string, unknown>;
}

/** True while the AI is grading or annotating the work. */
export function isBeingGraded(result: Pick<StudentResult, 'status'> | undefined): boolean {
  return result !== undefined && IN_PROGRESS.includes(result.status);
}

/**
 * Fetches a student's own result (`POST db/functionResult/get-view-only`), authorised by the
 * view token. An in-progress or unrun result has empty fields.
 */
export async function getResultViewOnly(
  input: { assignmentId: string; submissionId: string; viewToken: string | null },
  options: { signal?: AbortSignal } = {},
): Promise<StudentResult> {
  const { viewToken, ...ids } = input;
  const body = viewToken ? { ...ids, viewToken } : ids;
  const data = await api.post<{ functionResult?: unknown } | undefined>('/api/v1/db/functionResult/get-view-only', body, options);
  const raw = data?.functionResult;
  if (typeof raw !== 'object' || raw === null) throw new Error('The server sent no result');
  const fields = raw as Record<string, unknown>;
  return { status: typeof fields.status === 'string' ? fields.status : '', raw: fields };
}

/** Query options for a student's result, polled every 3 s while it is being graded. */
export function resultViewOnlyQueryOptions(assignmentId: string, submissionId: string, viewToken: string | null) {
  return queryOptions({
    queryKey: studentKeys.result(submissionId),
    queryFn: ({ signal }) => getResultViewOnly({ assignmentId, submissionId, viewToken }, { signal }),
    refetchInterval: (query) => (isBeingGraded(query.state.data) ? GRADING_POLL_MS : false),
    staleTime: 0,
  });
}

/** A student's result, asked for once `enabled` (the work has been read), kept fresh while it is graded. */
export function useResultViewOnly(assignmentId: string, submissionId: string, viewToken: string | null, enabled: boolean) {
  return useQuery({ ...resultViewOnlyQueryOptions(assignmentId, submissionId, viewToken), enabled });
}
