/**
 * Where a function result stands (docs/api-grading.md): never run, ready to grade (a handwritten
 * answer got its picture), in progress (`grading`, `rubric-grading`, `annotating`), done
 * (`graded`, `annotated`), `failed` with a reason, or `reviewed` by the teacher. Shared by the
 * submissions table and the review screens.
 */
export type ResultStatus =
  | ''
  | 'ready-to-grade'
  | 'grading'
  | 'rubric-grading'
  | 'annotating'
  | 'graded'
  | 'annotated'
  | 'failed'
  | 'reviewed';

/** Statuses in which the AI is still working on a result. */
export const IN_PROGRESS_STATUSES: readonly ResultStatus[] = ['grading', 'rubric-grading', 'annotating'];

/** True while the AI is working on a result in `status`. */
export function isInProgress(status: string | undefined): boolean {
  return (IN_PROGRESS_STATUSES as readonly (string | undefined)[]).includes(status);
}
