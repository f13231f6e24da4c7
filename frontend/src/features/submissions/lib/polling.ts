import { normalizeSubmissions } from '../api/normalize';
import { hasResultsInProgress } from './function-results';

/** How often the assignment is fetched again while its submissions are read or graded. */
export const POLL_INTERVAL_MS = 2000;

/**
 * How often the submissions table looks again when nothing is in progress: a pupil may hand in
 * work through the link, or a colleague upload, at any time. An unchanged class answers 304.
 */
export const IDLE_POLL_INTERVAL_MS = 10_000;

/** True while any submission still waits to be read or is being read. */
export function hasPendingSubmissions(submissions: unknown): boolean {
  return normalizeSubmissions(submissions).some((s) => s.status === 'queued' || s.status === 'extracting');
}

/**
 * A TanStack Query `refetchInterval` for the query whose data lists the submissions and their
 * function results: every {@link POLL_INTERVAL_MS} while any submission is queued or being read,
 * or any result is being graded or annotated; not at all once none is.
 */
export function submissionsRefetchInterval(submissions: unknown, functionResults?: unknown): number | false {
  return hasPendingSubmissions(submissions) || hasResultsInProgress(functionResults) ? POLL_INTERVAL_MS : false;
}
