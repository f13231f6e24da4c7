/**
 * Teacher submissions on the assignment page: uploading files, importing a CSV (grade
 * assignments), the submissions table with each result's status and points, grading all or the
 * selected, and polling while submissions are read or graded.
 *
 * The list of submissions arrives with the assignment (`db/assignment/get`), a query the page
 * owns: the page passes its data and key to {@link SubmissionsPanel} and polls with
 * {@link submissionsRefetchInterval}, so there is one request per interval.
 */
export { SubmissionsPanel, type SubmissionsPanelProps } from './components/SubmissionsPanel';
export type { SubmissionsToolbarContext } from './components/SubmissionsList';
export { ResultStatusChip, resultStatusLabel, type ResultStatusChipProps } from './components/ResultStatusChip';
export { hasPendingSubmissions, POLL_INTERVAL_MS, submissionsRefetchInterval } from './lib/polling';
export { hasResultsInProgress, isInProgress, readResultSummaries } from './lib/function-results';
export { reviewOrder, submissionReviewPath } from './lib/review-path';
export { normalizeSubmissions } from './api/normalize';
export { useSubmission, submissionQueryOptions } from './api/get-submission';
export { GRADING_STARTED_MESSAGE, useRunFunctionOnMany } from './api/run-function-on-many';
export type {
  AssignmentType,
  ResultStatus,
  ResultSummary,
  Submission,
  SubmissionsAssignment,
  SubmissionStatus,
  SubmissionWithText,
} from './api/types';
