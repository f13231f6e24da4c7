import { RUBRIC_LIST_QUERY_KEY } from '../../../lib/rubrics';

/**
 * Cache keys the rubric screens read and change. The library screen lists rubrics too and keeps
 * its data under `['library']`; rubric changes invalidate that key as well (by name, since
 * features do not import each other).
 */
export const rubricKeys = {
  all: ['rubrics'] as const,
  list: () => RUBRIC_LIST_QUERY_KEY,
  detail: (rubricId: string) => ['rubrics', 'detail', rubricId] as const,
};

/** The library screen's cache key (features/library), refreshed when a rubric changes. */
export const LIBRARY_QUERY_KEY = ['library'] as const;
