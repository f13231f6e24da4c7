/** The submission review page's route, under the assignment page's (a path of its own, so the route table need not load the page). */
export const SUBMISSION_REVIEW_PATH = 'assignment/:assignmentId/submission/:submissionId';
