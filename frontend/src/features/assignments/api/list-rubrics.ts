import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { RUBRIC_LIST_QUERY_KEY } from './keys';
import { normalizeRubric } from './normalize';
import type { Rubric } from './types';

/** Fetches the team's rubrics, newest first (`GET db/rubric/list`). */
export async function listRubrics(options: { signal?: AbortSignal } = {}): Promise<Rubric[]> {
  const data = await api.get<{ rubrics?: Rubric[] }>('/api/v1/db/rubric/list', options);
  return (data?.rubrics ?? []).map(normalizeRubric);
}

/** Query options for the team's rubrics. */
export function rubricListQueryOptions() {
  return queryOptions({
    queryKey: RUBRIC_LIST_QUERY_KEY,
    queryFn: ({ signal }) => listRubrics({ signal }),
  });
}

/** The team's rubrics; pass `enabled: false` to skip fetching when none are needed. */
export function useRubricList({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...rubricListQueryOptions(), enabled });
}
