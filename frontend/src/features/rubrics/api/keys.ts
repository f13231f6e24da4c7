import { RUBRIC_LIST_QUERY_KEY } from '../../../lib/rubrics';

/**
 * Cache keys the rubric screens read and change. The library screen lists rubrics too and keeps
 * its data under `libraryKeys.all` (lib/query-keys); rubric changes invalidate that key as well.
 */
export const rubricKeys = {
  all: ['rubrics'] as const,
  list: () => RUBRIC_LIST_QUERY_KEY,
  detail: (rubricId: string) => ['rubrics', 'detail', rubricId] as const,
};

/** The library lists rubrics too: its key (lib/query-keys), refreshed when a rubric changes. */
export { libraryKeys } from '../../../lib/query-keys';
