import { normalizeSubmissions } from '../api/normalize';

/** How often the assignment is fetched again while its submissions are being read. */
export const POLL_INTERVAL_MS = 2000;

/** True while any submission still waits to be read or is being read. */
export function hasPendingSubmissions(submissions: unknown): boolean {
  return normalizeSubmissions(submissions).some((s) => s.status === 'queued' || s.status === 'extracting');
}

/**
 * A TanStack Query `refetchInterval` for the query whose data lists the submissions: every
 * {@link POLL_INTERVAL_MS} while any is queued or extracting, and not at all once none is.
 */
export function submissionsRefetchInterval(submissions: unknown): number | false {
  return hasPendingSubmissions(submissions) ? POLL_INTERVAL_MS : false;
}
