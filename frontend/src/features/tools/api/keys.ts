import { RUBRIC_LIST_QUERY_KEY } from '../../../lib/rubrics';

/** Cache keys of the tools feature. */
export const toolKeys = {
  all: ['tools'] as const,
  catalog: () => ['tools', 'catalog'] as const,
};

/** The rubric list's key (lib/rubrics): a rubric made from a sheet lands in it. */
export const RUBRIC_LIST_KEY = RUBRIC_LIST_QUERY_KEY;

/** The library screen's cache key (features/library), which lists rubrics too. */
export const LIBRARY_QUERY_KEY = ['library'] as const;
