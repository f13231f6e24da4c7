import { keepPreviousData, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { ApiError, api } from '../../../lib/api-client';
import { readResultSummary } from '../lib/function-results';
import { POLL_INTERVAL_MS } from '../lib/polling';
import { normalizeSubmission } from './normalize';
import type { ResultSummary, Submission } from './types';

/** The table's status buckets: each submission is in one (the server's result.RowBuckets). */
export const ROW_BUCKETS = ['reading', 'ungraded', 'grading', 'graded', 'reviewed', 'failed'] as const;
export type RowBucket = (typeof ROW_BUCKETS)[number];

/** The columns the server sorts by. */
export type RowSort = 'name' | 'student' | 'status' | 'result' | 'preview' | 'pages' | 'submitted';

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
  /** The whole class's submissions whose result was graded against an earlier definition. */
  outdatedIds: string[];
  /** How many of those the teacher reviewed. */
  outdatedReviewed: number;
  /** How many of the whole class were imported from Google Classroom. */
  classroomSubmissions: number;
  version: string;
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
    outdatedIds: Array.isArray(data.outdatedIds) ? (data.outdatedIds as string[]) : [],
    outdatedReviewed: typeof data.outdatedReviewed === 'number' ? data.outdatedReviewed : 0,
    classroomSubmissions: typeof data.classroomSubmissions === 'number' ? data.classroomSubmissions : 0,
    version: typeof data.version === 'string' ? data.version : '',
  };
}

/**
 * One page of an assignment's submissions table, sorted, filtered and searched by the server.
 * Given the version of the page it has, the server answers 304 when nothing in the class changed
 * and `previous` is returned as it is.
 */
export async function getSubmissionRows(
  assignmentId: string,
  params: Partial<RowsParams> & { ids?: boolean },
  options: { signal?: AbortSignal; previous?: RowsPage } = {},
): Promise<RowsPage> {
  const { previous, signal } = options;
  const headers = previous?.version ? { 'If-None-Match': `"${previous.version}"` } : undefined;
  try {
    const data = await api.post<unknown>('/api/v1/db/assignment/submission-rows', { assignmentId, ...params }, { signal, headers });
    return read(data);
  } catch (error) {
    if (previous && error instanceof ApiError && error.status === 304) return previous;
    throw error;
  }
}

/**
 * The key of one page of an assignment's table: under the assignment's key, so every change that
 * refreshes the assignment refreshes the table too.
 */
export function rowsKey(assignmentQueryKey: QueryKey, params?: RowsParams): QueryKey {
  return params ? [...assignmentQueryKey, 'rows', params] : [...assignmentQueryKey, 'rows'];
}

/**
 * A page of the table, polled every 2 s while anything is read or graded; the last page stays
 * shown while the next one loads.
 */
export function useSubmissionRows(assignmentId: string, assignmentQueryKey: QueryKey, params: RowsParams) {
  const queryClient = useQueryClient();
  const queryKey = rowsKey(assignmentQueryKey, params);
  return useQuery({
    queryKey,
    queryFn: ({ signal }) =>
      getSubmissionRows(assignmentId, params, { signal, previous: queryClient.getQueryData<RowsPage>(queryKey) }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.inProgress ? POLL_INTERVAL_MS : false),
  });
}
