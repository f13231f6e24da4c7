import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { studentKeys } from './keys';

/**
 * Fetches the definition of a student's assignment (`POST db/function/get-view-only`): the
 * highlighters, rubric or prompt the result view needs. Authorised by the view token.
 */
export async function getFunctionViewOnly(
  input: { assignmentId: string; type: string; viewToken: string | null },
  options: { signal?: AbortSignal } = {},
): Promise<Record<string, unknown>> {
  const { viewToken, ...rest } = input;
  const body = viewToken ? { ...rest, viewToken } : rest;
  const data = await api.post<{ function?: unknown } | undefined>('/api/v1/db/function/get-view-only', body, options);
  const fn = data?.function;
  if (typeof fn !== 'object' || fn === null) throw new Error('The server sent no definition');
  return fn as Record<string, unknown>;
}

/** Query options for the definition of a student's assignment. */
export function functionViewOnlyQueryOptions(assignmentId: string, submissionId: string, type: string, viewToken: string | null) {
  return queryOptions({
    queryKey: studentKeys.definition(assignmentId, submissionId),
    queryFn: ({ signal }) => getFunctionViewOnly({ assignmentId, type, viewToken }, { signal }),
  });
}

/** The definition of a student's assignment, asked for once its type is known and a result is ready. */
export function useFunctionViewOnly(
  assignmentId: string,
  submissionId: string,
  type: string | undefined,
  viewToken: string | null,
  enabled: boolean,
) {
  return useQuery({ ...functionViewOnlyQueryOptions(assignmentId, submissionId, type ?? '', viewToken), enabled: enabled && !!type });
}
