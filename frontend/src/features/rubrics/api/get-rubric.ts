import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Rubric } from '../types';
import { rubricKeys } from './keys';

/** Fetches one rubric of the team (`POST /api/v1/db/rubric/get`); 404 when it is not the team's. */
export async function getRubric(rubricId: string, options: { signal?: AbortSignal } = {}): Promise<Rubric> {
  const data = await api.post<{ rubric: Rubric }>('/api/v1/db/rubric/get', { rubricId }, options);
  return data.rubric;
}

/** Query options for one rubric. */
export function rubricQueryOptions(rubricId: string) {
  return queryOptions({
    queryKey: rubricKeys.detail(rubricId),
    queryFn: ({ signal }) => getRubric(rubricId, { signal }),
  });
}

/** One rubric of the team. */
export function useRubric(rubricId: string) {
  return useQuery(rubricQueryOptions(rubricId));
}
