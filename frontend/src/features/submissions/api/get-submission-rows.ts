import { keepPreviousData, queryOptions, useQuery, type QueryKey } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { ifNoneMatch, revalidatedFetch, type Revalidated } from '../../../lib/revalidated-query';
import { readResultSummary } from '../lib/function-results';
import { IDLE_POLL_INTERVAL_MS, POLL_INTERVAL_MS } from '../lib/polling';
import { normalizeSubmission } from './normalize';
import type { ResultSummary, Submission } from './types';

/** The table's status buckets: each submission is in one (the server's result.RowBuckets). */
export const ROW_BUCKETS = ['reading', 'ungraded', 'grading', 'graded', 'reviewed', 'failed'] as const;
export type RowBucket = (typeof ROW_BUCKETS)[number];

/** The columns the server sorts by. */
export type RowSort = 'name' | 'student' | 'status' | 'result' | 'preview' | 'pages' | 'submitted';

/** The columns the table lets the URL sort by (`?sort=`). */
const URL_SORTS: readonly RowSort[] = ['name', 'student', 'status', 'result', 'preview', 'pages'];

/** The page sizes the table offers (`?per=`); the first page size is 50. */
export const ROWS_PER_PAGE = [25, 50, 100] as const;

/** What one page of the table asks (`db/assignment/submission-rows`). */
export interface RowsParams {
  offset: number;
  limit: number;
  sort: RowSort;
  order: 'asc' | 'desc';
  status: 'all' | RowBucket;
  search: string;
}

/** One row: the submission, its bucket and its result (null when it has none). */
export interface SubmissionRow {
  submission: Submission;
  bucket: RowBucket;
  result: ResultSummary | null;
}

/** One page of the table and what the whole class holds. */
export interface RowsPage {
  rows: SubmissionRow[];
  /** How many match the filter and search. */
  total: number;
  /** The whole class by bucket. */
  counts: Record<RowBucket, number>;
  classSize: number;
  /** Something is being read or graded: the page polls. */
  inProgress: boolean;
  submissionIds?: string[];
  reviewedIds?: string[];
  /** Those of them whose file could not be read: there is nothing to grade. */
  unreadableIds?: string[];
  /** The whole class's submissions whose result was graded against an earlier definition. */
  outdatedIds: string[];
  /** How many of those the teacher reviewed. */
  outdatedReviewed: number;
  /** Those of them graded before a question or criterion was added (not only changed): their students would see it as not met. */
  questionsAddedIds: string[];
  /** How many of those the teacher reviewed. */
  questionsAddedReviewed: number;
  /** How many of the whole class were imported from Google Classroom. */
  classroomSubmissions: number;
  version: string;
}

/**
 * The page of the table a URL's query string asks for (`sort`, `order`, `status`, `q`, `per`,
 * `page`; the defaults when absent or unknown): the table's own reading of its URL, and the
 * first read's (app/first-reads.ts), so both ask under one key.
 */
export function rowsParamsFromSearch(search: URLSearchParams): RowsParams {
  const per = ROWS_PER_PAGE.find((n) => String(n) === search.get('per')) ?? 50;
  const page = Math.max(0, Number.parseInt(search.get('page') ?? '1', 10) - 1 || 0);
  return {
    sort: URL_SORTS.find((c) => c === search.get('sort')) ?? 'name',
    order: search.get('order') === 'desc' ? 'desc' : 'asc',
    status: ROW_BUCKETS.find((b) => b === search.get('status')) ?? 'all',
    search: search.get('q') ?? '',
    limit: per,
    offset: page * per,
  };
}

function read(raw: unknown): RowsPage {
  const data = (raw ?? {}) as Record<string, unknown>;
  const rows = Array.isArray(data.rows) ? data.rows : [];
  const counts = (data.counts ?? {}) as Record<string, unknown>;
  return {
    rows: rows.flatMap((r: Record<string, unknown>) => {
      const submission = normalizeSubmission(r);
      if (!submission) return [];
      const bucket = ROW_BUCKETS.find((b) => b === r.bucket) ?? 'ungraded';
      return [{ submission, bucket, result: r.result ? readResultSummary(r.result) : null }];
    }),
    total: typeof data.total === 'number' ? data.total : 0,
    counts: Object.fromEntries(ROW_BUCKETS.map((b) => [b, typeof counts[b] === 'number' ? counts[b] : 0])) as Record<RowBucket, number>,
    classSize: typeof data.classSize === 'number' ? data.classSize : 0,
    inProgress: data.inProgress === true,
    ...(Array.isArray(data.submissionIds) ? { submissionIds: data.submissionIds as string[] } : {}),
    ...(Array.isArray(data.submissionIds) ? { reviewedIds: Array.isArray(data.reviewedIds) ? (data.reviewedIds as string[]) : [] } : {}),
    ...(Array.isArray(data.submissionIds) ? { unreadableIds: Array.isArray(data.unreadableIds) ? (data.unreadableIds as string[]) : [] } : {}),
    outdatedIds: Array.isArray(data.outdatedIds) ? (data.outdatedIds as string[]) : [],
    outdatedReviewed: typeof data.outdatedReviewed === 'number' ? data.outdatedReviewed : 0,
    questionsAddedIds: Array.isArray(data.questionsAddedIds) ? (data.questionsAddedIds as string[]) : [],
    questionsAddedReviewed: typeof data.questionsAddedReviewed === 'number' ? data.questionsAddedReviewed : 0,
    classroomSubmissions: typeof data.classroomSubmissions === 'number' ? data.classroomSubmissions : 0,
    version: typeof data.version === 'string' ? data.version : '',
  };
}

/** One page of an assignment's submissions table, sorted, filtered and searched by the server. */
export async function getSubmissionRows(
  assignmentId: string,
  params: Partial<RowsParams> & { ids?: boolean },
  options: { signal?: AbortSignal } = {},
): Promise<RowsPage> {
  return read(await api.post<unknown>('/api/v1/db/assignment/submission-rows', { assignmentId, ...params }, { signal: options.signal }));
}

/**
 * The key of one page of an assignment's table: under the assignment's key, so every change that
 * refreshes the assignment refreshes the table too.
 */
export function rowsKey(assignmentQueryKey: QueryKey, params?: RowsParams): QueryKey {
  return params ? [...assignmentQueryKey, 'rows', params] : [...assignmentQueryKey, 'rows'];
}

/**
 * One page of an assignment's table: sends the version of the page it holds, so that a read of an
 * unchanged class is a 304. The assignment page's first read starts it before the table's code has
 * loaded (app/first-reads.ts); the table then finds it under the same key.
 */
export function submissionRowsQueryOptions(assignmentId: string, assignmentQueryKey: QueryKey, params: RowsParams) {
  const queryKey = rowsKey(assignmentQueryKey, params);
  return queryOptions({
    queryKey,
    // A poll sends the version of the page it holds: a 304 keeps that page, the same object
    // (lib/revalidated-query.ts), and the table goes on polling while its work is in progress.
    queryFn: ({ signal }) =>
      revalidatedFetch<{ version?: unknown }, RowsPage>(
        queryKey,
        (version) =>
          api.post<Revalidated<{ version?: unknown }>>(
            '/api/v1/db/assignment/submission-rows',
            { assignmentId, ...params },
            { signal, headers: ifNoneMatch(version) },
          ),
        read,
      ),
  });
}

/**
 * A page of the table, polled every 2 s while anything is read or graded, and every 10 s (and when
 * the window gets the focus back) otherwise, so that work a pupil hands in through the link shows
 * without a reload; a poll of an unchanged class is a 304. The last page stays shown while the
 * next one loads.
 */
export function useSubmissionRows(assignmentId: string, assignmentQueryKey: QueryKey, params: RowsParams) {
  return useQuery({
    ...submissionRowsQueryOptions(assignmentId, assignmentQueryKey, params),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.inProgress ? POLL_INTERVAL_MS : IDLE_POLL_INTERVAL_MS),
    refetchOnWindowFocus: true,
  });
}
