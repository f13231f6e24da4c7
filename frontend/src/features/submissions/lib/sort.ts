import type { Submission, SubmissionStatus } from '../api/types';

/** The columns the submissions table sorts by. */
export type SortColumn = 'name' | 'student' | 'status' | 'preview' | 'pages';

/** A sort: which column, which way. */
export interface Sort {
  column: SortColumn;
  direction: 'asc' | 'desc';
}

/** Status order when sorting: failures first, so they catch the eye. */
const STATUS_ORDER: Record<SubmissionStatus, number> = { failed: 0, queued: 1, extracting: 2, ready: 3 };

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** What the Student column shows: the name, else the email. */
export function studentLabel(s: Submission): string {
  return s.studentName || s.studentEmail;
}

function compare(a: Submission, b: Submission, column: SortColumn): number {
  switch (column) {
    case 'name':
      return collator.compare(a.name, b.name);
    case 'student':
      return collator.compare(studentLabel(a), studentLabel(b));
    case 'status':
      return STATUS_ORDER[a.status] - STATUS_ORDER[b.status];
    case 'preview':
      return collator.compare(a.preview, b.preview);
    case 'pages':
      return a.pageCount - b.pageCount;
  }
}

/** The submissions in `sort` order; ties keep upload order (oldest first). */
export function sortSubmissions(submissions: Submission[], sort: Sort): Submission[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  return submissions
    .map((s, index) => ({ s, index }))
    .sort((x, y) => sign * compare(x.s, y.s, sort.column) || x.index - y.index)
    .map(({ s }) => s);
}
