import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Rubric } from '../types';
import { rubricKeys } from './keys';

/** Fetches the team's rubrics, newest first (`GET /api/v1/db/rubric/list`). */
export async function listRubrics(options: { signal?: AbortSignal } = {}): Promise<Rubric[]> {
  const data = await api.get<{ rubrics?: Rubric[] } | undefined>('/api/v1/db/rubric/list', options);
  return data?.rubrics ?? [];
}

/** Query options for the team's rubrics. */
export function rubricListQueryOptions() {
  return queryOptions({
    queryKey: rubricKeys.list(),
    queryFn: ({ signal }) => listRubrics({ signal }),
  });
}

/** The team's rubrics, newest first. */
export function useRubricList() {
  return useQuery(rubricListQueryOptions());
}
