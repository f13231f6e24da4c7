/**
 * Cache keys of the assignments feature. The library and rubric keys are prefixes other
 * features' queries are expected to sit under, so invalidating them refreshes those screens too.
 */
export const assignmentKeys = {
  /** Every assignment query. */
  all: ['assignments'] as const,
  /** One assignment (`db/assignment/get`). */
  detail: (assignmentId: string) => ['assignments', assignmentId] as const,
  /** One assignment's definition (`db/function/get`). */
  definition: (assignmentId: string) => ['assignments', assignmentId, 'function'] as const,
};

/** The team library (lib/query-keys); refreshed when an assignment changes. */
export { libraryKeys } from '../../../lib/query-keys';

/** The team's rubrics (`GET db/rubric/list`), shared with the rubric screens. */
export { RUBRIC_LIST_QUERY_KEY } from '../../../lib/rubrics';
