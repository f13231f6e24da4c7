/**
 * Teacher submissions on the assignment page: uploading files, importing a CSV (grade
 * assignments), the submissions table, and polling while submissions are read.
 *
 * The list of submissions arrives with the assignment (`db/assignment/get`), a query the page
 * owns: the page passes its data and key to {@link SubmissionsPanel} and polls with
 * {@link submissionsRefetchInterval}, so there is one request per interval.
 */
export { SubmissionsPanel, type SubmissionsPanelProps } from './components/SubmissionsPanel';
export { hasPendingSubmissions, POLL_INTERVAL_MS, submissionsRefetchInterval } from './lib/polling';
export type { AssignmentType, Submission, SubmissionsAssignment, SubmissionStatus } from './api/types';
