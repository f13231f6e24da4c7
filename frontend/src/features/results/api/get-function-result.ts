import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { ifNoneMatch, revalidatedFetch, type Revalidated } from '../../../lib/revalidated-query';
import { isInProgress, normalizeFunctionResult } from '../lib/normalize';
import { functionResultKeys } from './keys';
import type { FunctionResult } from './types';

/** How often a result the AI is still working on is fetched again. */
export const RESULT_POLL_MS = 2000;

/** What `db/functionResult/get` takes. */
export interface GetFunctionResultInput {
  assignmentId: string;
  submissionId: string;
}

/**
 * Fetches one submission's result (`POST db/functionResult/get`), with every field present. A
 * foreign or unknown id rejects with 404.
 */
export async function getFunctionResult(input: GetFunctionResultInput, options: { signal?: AbortSignal } = {}): Promise<FunctionResult> {
  const data = await api.post<{ functionResult?: unknown } | undefined>('/api/v1/db/functionResult/get', input, options);
  if (!data?.functionResult) throw new Error('The server sent no result');
  return normalizeFunctionResult(data.functionResult);
}

/**
 * Query options for one submission's result: fetched again every 2 s while the AI works on it,
 * each fetch sending the version it holds (a 304 when the result did not change).
 */
export function functionResultQueryOptions(input: GetFunctionResultInput) {
  const queryKey = functionResultKeys.detail(input.submissionId);
  return queryOptions({
    queryKey,
    queryFn: ({ signal }) =>
      revalidatedFetch<{ functionResult?: unknown; version?: string }, FunctionResult>(
        queryKey,
        (version) =>
          api.post<Revalidated<{ functionResult?: unknown; version?: string }>>('/api/v1/db/functionResult/get', input, {
            signal,
            headers: ifNoneMatch(version),
          }),
        (data) => {
          if (!data?.functionResult) throw new Error('The server sent no result');
          return normalizeFunctionResult(data.functionResult);
        },
      ),
    refetchInterval: (query) => (query.state.data && isInProgress(query.state.data.status) ? RESULT_POLL_MS : false),
  });
}

/** One submission's result, polled while it is in progress. */
export function useFunctionResult(assignmentId: string, submissionId: string) {
  return useQuery(functionResultQueryOptions({ assignmentId, submissionId }));
}
