import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client';

/**
 * The rubric shapes and the team's rubric list, shared by the screens that edit rubrics
 * (features/rubrics) and the ones that attach them to assignments (features/assignments): one
 * type, one fetcher, one cache key, one data shape.
 */

/** The point range of one level, matched to its level by index. */
export interface LevelRange {
  levelDescriptionsIndex: number;
  min?: number;
  max?: number;
}

/** One row of a rubric: what is judged, and the levels of achievement for it. */
export interface RubricCriterion {
  criterionDescription: string;
  levelDescriptions: string[];
  useRange: boolean;
  levelRanges?: LevelRange[];
}

/** A saved rubric of the team library. */
export interface Rubric {
  _id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  criteria: RubricCriterion[];
}

/** The cache key of the team's rubric list; rubric changes invalidate it. */
export const RUBRIC_LIST_QUERY_KEY = ['rubrics', 'list'] as const;

/** A rubric with every list present (the server may send null for an empty list). */
export function normalizeRubric(rubric: Rubric): Rubric {
  return {
    ...rubric,
    criteria: (rubric.criteria ?? []).map((c) => ({ ...c, levelDescriptions: c.levelDescriptions ?? [] })),
  };
}

/** Fetches the team's rubrics, newest first (`GET /api/v1/db/rubric/list`). */
export async function listRubrics(options: { signal?: AbortSignal } = {}): Promise<Rubric[]> {
  const data = await api.get<{ rubrics?: Rubric[] } | undefined>('/api/v1/db/rubric/list', options);
  return (data?.rubrics ?? []).map(normalizeRubric);
}

/** Query options for the team's rubrics. */
export function rubricListQueryOptions() {
  return queryOptions({
    queryKey: RUBRIC_LIST_QUERY_KEY,
    queryFn: ({ signal }) => listRubrics({ signal }),
  });
}

/** The team's rubrics, newest first; pass `enabled: false` to skip fetching when none are needed. */
export function useRubricList({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...rubricListQueryOptions(), enabled });
}
