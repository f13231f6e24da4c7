import { RUBRIC_LIST_QUERY_KEY } from '../../../lib/rubrics';

/** Cache keys of the tools feature. */
export const toolKeys = {
  all: ['tools'] as const,
};

/** The rubric list's key (lib/rubrics): a rubric made from a sheet lands in it. */
export const RUBRIC_LIST_KEY = RUBRIC_LIST_QUERY_KEY;

/** The library (lib/query-keys), which lists rubrics too. */
export { libraryKeys } from '../../../lib/query-keys';
