/** Cache keys of the answer-boxes feature; each key belongs to exactly one call and data shape. */
export const answerBoxKeys = {
  /** An assignment's boxes and sample (`db/assignment/answer-boxes/get`). */
  detail: (assignmentId: string) => ['answer-boxes', assignmentId] as const,
  /** The signed image URL of one page of a submission (`db/submission/page-image`). */
  pageImage: (submissionId: string, page: number) => ['submission-page-image', submissionId, page] as const,
};
