import type { ResultStatus, ResultSummary, Submission, SubmissionStatus } from '../api/types';

/** The columns the submissions table sorts by. */
export type SortColumn = 'name' | 'student' | 'status' | 'result' | 'preview' | 'pages';

/** A sort: which column, which way. */
export interface Sort {
  column: SortColumn;
  direction: 'asc' | 'desc';
}

/** Status order when sorting: failures first, so they catch the eye. */
const STATUS_ORDER: Record<SubmissionStatus, number> = { failed: 0, queued: 1, extracting: 2, ready: 3 };

/** Result order when sorting: failures first, then work in progress, then by points. */
const RESULT_ORDER: Record<ResultStatus, number> = {
  failed: 0,
  grading: 1,
  'rubric-grading': 1,
  annotating: 1,
  '': 2,
  'ready-to-grade': 3,
  graded: 4,
  annotated: 4,
  reviewed: 5,
};

/** Results by submission id, as the table reads them. */
export type ResultsBySubmission = ReadonlyMap<string, ResultSummary>;

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** What the Student column shows: the name, else the email. */
export function studentLabel(s: Submission): string {
  return s.studentName || s.studentEmail;
}

function compareResults(a: ResultSummary | undefined, b: ResultSummary | undefined): number {
  const order = RESULT_ORDER[a?.status ?? ''] - RESULT_ORDER[b?.status ?? ''];
  return order || (a?.totalPoints ?? -1) - (b?.totalPoints ?? -1);
}

function compare(a: Submission, b: Submission, column: SortColumn, results: ResultsBySubmission): number {
  switch (column) {
    case 'result':
      return compareResults(results.get(a._id), results.get(b._id));
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
export function sortSubmissions(submissions: Submission[], sort: Sort, results: ResultsBySubmission = new Map()): Submission[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  return submissions
    .map((s, index) => ({ s, index }))
    .sort((x, y) => sign * compare(x.s, y.s, sort.column, results) || x.index - y.index)
    .map(({ s }) => s);
}
