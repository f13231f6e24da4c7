/**
 * Cache keys of the resources more than one feature reads or refreshes: one key factory per
 * resource, used by every query and every invalidation of it. A feature's own resources keep
 * their factory in `features/<area>/api/keys.ts`.
 */

/** The team library (`GET db/library`: folders, assignments, rubrics) and share notifications. */
export const libraryKeys = {
  /** Folders, assignments and rubrics; refreshed when any of them changes. */
  all: ['library'] as const,
  /** Share notifications of the signed-in teacher. */
  notifications: () => ['notifications'] as const,
};

/** The built-in tools and workflows (`GET /api/v1/catalog`). */
export const catalogKeys = {
  all: ['catalog'] as const,
};

/** Saved assistants (`POST db/assistant/list`). */
export const assistantKeys = {
  all: ['assistants'] as const,
  list: () => ['assistants', 'list'] as const,
};

/**
 * An assignment's history of changes (`POST db/assignment/history`): read by the assignment page,
 * refreshed by whatever changes the assignment (its definition, its settings, its student link).
 */
export const assignmentHistoryKeys = {
  of: (assignmentId: string) => ['assignments', assignmentId, 'history'] as const,
};
