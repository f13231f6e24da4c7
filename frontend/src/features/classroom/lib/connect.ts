import { ApiError } from '../../../lib/api-client';
import { browserLocation } from '../../../lib/navigation';

/** Where the server starts the Google consent flow (a full-page navigation, not a fetch). */
export const CONNECT_PATH = '/api/v1/google/classroom/connect';

/** The query parameter the server adds to the page the teacher comes back to after consent. */
export const OUTCOME_PARAM = 'googleClassroom';

/** The toast after a successful connection. */
export const CONNECTED_MESSAGE = 'Google Classroom connected';

/** What each outcome but `connected` tells the teacher. */
const OUTCOME_ERRORS: Record<string, string> = {
  denied: 'Google Classroom was not connected: the permission request was declined.',
  'missing-scopes':
    'Markwell needs every permission it asks for to import from Google Classroom. Please connect again and allow them all.',
  'not-configured': 'Google sign-in is not configured on this server',
};

/** The fallback for `failed` and any outcome this page does not know. */
export const CONNECT_FAILED_MESSAGE = 'Google Classroom could not be connected. Please try again.';

/** The error message of a connect outcome other than `connected`. */
export function outcomeError(outcome: string): string {
  return OUTCOME_ERRORS[outcome] ?? CONNECT_FAILED_MESSAGE;
}

/** The connect address that brings the teacher back to `returnTo` (a path on this site). */
export function connectUrl(returnTo: string): string {
  return `${CONNECT_PATH}?${new URLSearchParams({ returnTo }).toString()}`;
}

/** Leaves the app for Google's consent screen; the teacher comes back to `returnTo`. */
export function startConnect(returnTo: string): void {
  browserLocation.assign(connectUrl(returnTo));
}

/**
 * True when a Classroom call failed because the teacher must connect (again): not connected,
 * access expired or revoked, or a permission missing (409).
 */
export function needsReconnect(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409;
}
