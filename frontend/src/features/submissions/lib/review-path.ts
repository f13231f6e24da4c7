import type { Submission } from '../api/types';
import { sortSubmissions } from './sort';

/** The address of one submission's review screen. */
export function submissionReviewPath(assignmentId: string, submissionId: string): string {
  return `/assignment/${encodeURIComponent(assignmentId)}/submission/${encodeURIComponent(submissionId)}`;
}

/** The order a teacher reviews submissions in: the table's default order, by name. */
export function reviewOrder(submissions: Submission[]): Submission[] {
  return sortSubmissions(submissions, { column: 'name', direction: 'asc' });
}
