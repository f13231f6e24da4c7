/** Cache keys of the library feature: the library and notifications are shared resources (lib/query-keys). */
export { libraryKeys } from '../../../lib/query-keys';

/** The rubric screens' cache key (features/rubrics): refreshed when a rubric is deleted or copied. */
export const RUBRICS_QUERY_KEY = ['rubrics'] as const;
