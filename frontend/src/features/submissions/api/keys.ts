import type { QueryKey } from '@tanstack/react-query';

/**
 * Cache keys of the submissions feature. The list of an assignment's submissions is not here: it
 * arrives with the assignment (`db/assignment/get`), under the key of the feature that owns that
 * call, which the page hands to this feature as {@link AssignmentQueryKey}.
 */
export const submissionKeys = {
  /** Every submission query. */
  all: ['submissions'] as const,
  /** One submission with its text (`db/submission/get`). */
  detail: (submissionId: string) => ['submissions', submissionId] as const,
};

/** The key of the assignment query whose data lists the submissions; refreshed after every change. */
export type AssignmentQueryKey = QueryKey;
