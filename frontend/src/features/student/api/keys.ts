/** Cache keys of the student feature; each key belongs to exactly one call and data shape. */
export const studentKeys = {
  /** The teacher's view of an assignment's student link (`db/assignment/student-link/get`). */
  link: (assignmentId: string) => ['student-link', assignmentId] as const,
  /** The assignment behind a link token (`student/link`). */
  linkAssignment: (linkToken: string) => ['student', 'link', linkToken] as const,
  /** A student's own submission (`db/submission/get-view-only`). */
  submission: (submissionId: string) => ['student', 'submission', submissionId] as const,
  /** The assignment of a student's result page (`db/assignment/get-view-only`). */
  resultAssignment: (assignmentId: string, submissionId: string) =>
    ['student', 'assignment', assignmentId, submissionId] as const,
  /** A student's own function result (`db/functionResult/get-view-only`). */
  result: (submissionId: string) => ['student', 'result', submissionId] as const,
  /** The definition of a student's assignment (`db/function/get-view-only`). */
  definition: (assignmentId: string, submissionId: string) => ['student', 'function', assignmentId, submissionId] as const,
};
