import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { postForFile, saveBlob } from '../../../lib/download';
import { readReleases, type Release, type ReleaseOutcome } from './types';

/** The query keys of this feature: `list(a)` is every row's of assignment `a` (invalidated as one). */
export const releaseKeys = {
  all: ['releases'] as const,
  list: (assignmentId: string) => ['releases', assignmentId] as const,
  row: (assignmentId: string, submissionId: string) => ['releases', assignmentId, submissionId] as const,
  /** What the Release dialog knows of the whole class (see {@link useClassReleases}); under `list(a)`. */
  classState: (assignmentId: string) => ['releases', assignmentId, 'class'] as const,
  /** The class's graded results not reviewed (see {@link useGradedIds}); under `list(a)`. */
  graded: (assignmentId: string) => ['releases', assignmentId, 'graded'] as const,
};

/** The releases of the given submissions of an assignment (`db/assignment/release/list`). */
async function listReleasesOf(assignmentId: string, submissionIds: string[]): Promise<Release[]> {
  const data = await api.post<{ releases?: unknown }>('/api/v1/db/assignment/release/list', { assignmentId, submissionIds });
  return readReleases(data?.releases);
}

/** The most submissions one list asks for (the server takes 1,000; a page of the table is at most 100). */
const LIST_CHUNK = 500;

type Waiter = { submissionId: string; resolve: (r: Release | null) => void; reject: (e: unknown) => void };

/** The rows asked for in the current task, by assignment: one request each (see loadRelease). */
const waiting = new Map<string, Waiter[]>();

/**
 * One row's release, asked together with every other row of the assignment asked in the same task:
 * a page of the table costs one small request, not the whole class's releases (1.6 MB for 10,000).
 * Null for a submission the server does not list (deleted since).
 */
function loadRelease(assignmentId: string, submissionId: string): Promise<Release | null> {
  return new Promise((resolve, reject) => {
    let batch = waiting.get(assignmentId);
    if (!batch) {
      batch = [];
      waiting.set(assignmentId, batch);
      setTimeout(() => void askWaiting(assignmentId), 0);
    }
    batch.push({ submissionId, resolve, reject });
  });
}

async function askWaiting(assignmentId: string) {
  const batch = waiting.get(assignmentId) ?? [];
  waiting.delete(assignmentId);
  const ids = [...new Set(batch.map((w) => w.submissionId))];
  try {
    const byId = new Map<string, Release>();
    for (let i = 0; i < ids.length; i += LIST_CHUNK) {
      for (const r of await listReleasesOf(assignmentId, ids.slice(i, i + LIST_CHUNK))) byId.set(r.submissionId, r);
    }
    for (const w of batch) w.resolve(byId.get(w.submissionId) ?? null);
  } catch (error) {
    for (const w of batch) w.reject(error);
  }
}

/** How often a row is asked again while its email waits to be sent. */
export const EMAIL_POLL_MS = 3000;

function releaseQueryOptions(assignmentId: string, submissionId: string) {
  return queryOptions({
    queryKey: releaseKeys.row(assignmentId, submissionId),
    queryFn: () => loadRelease(assignmentId, submissionId),
    refetchInterval: (query) => (query.state.data?.email === 'queued' ? EMAIL_POLL_MS : false),
  });
}

/** One row's release (null: not listed), polled while its email is queued. */
export function useRowRelease(assignmentId: string, submissionId: string) {
  return useQuery(releaseQueryOptions(assignmentId, submissionId));
}

/**
 * What the Release dialog needs of the whole class: the reviewed results (what "Release all
 * reviewed" takes) and the results whose link is live now. Not released yet = reviewed minus live.
 */
export interface ClassReleases {
  reviewedIds: string[];
  releasedIds: string[];
}

const ids = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** The class's reviewed results (`db/assignment/submission-rows` with ids) and its live links (`release/list`). */
async function loadClassReleases(assignmentId: string, signal?: AbortSignal): Promise<ClassReleases> {
  const [rows, list] = await Promise.all([
    api.post<{ reviewedIds?: unknown }>('/api/v1/db/assignment/submission-rows', { assignmentId, offset: 0, limit: 1, ids: true }, { signal }),
    api.post<{ releases?: unknown }>('/api/v1/db/assignment/release/list', { assignmentId }, { signal }),
  ]);
  return {
    reviewedIds: ids(rows?.reviewedIds),
    releasedIds: readReleases(list?.releases).filter((r) => r.state === 'released').map((r) => r.submissionId),
  };
}

/**
 * The class's reviewed results and live links, asked while `enabled` (the dialog is open) and again
 * each time it opens: results are reviewed and released elsewhere meanwhile.
 */
export function useClassReleases(assignmentId: string, enabled: boolean) {
  return useQuery({
    queryKey: releaseKeys.classState(assignmentId),
    queryFn: ({ signal }) => loadClassReleases(assignmentId, signal),
    enabled,
    staleTime: 0,
  });
}

/**
 * The class's results graded (or annotated) and not reviewed: submission-rows' "graded" bucket.
 * With the reviewed ones ({@link ClassReleases}), they are the finished results, the only selected
 * rows a release takes (the server's assignment.Finished); it skips the others as not graded yet
 * (still grading, failed, or never graded). A submission has a finished result only once its file
 * is read, so the buckets and the server's rule agree.
 */
async function loadGradedIds(assignmentId: string, signal?: AbortSignal): Promise<string[]> {
  const rows = await api.post<{ submissionIds?: unknown }>(
    '/api/v1/db/assignment/submission-rows',
    { assignmentId, offset: 0, limit: 1, status: 'graded', ids: true },
    { signal },
  );
  return ids(rows?.submissionIds);
}

/** The class's graded results not reviewed, asked while `enabled` (rows are selected in an open dialog) and at each opening. */
export function useGradedIds(assignmentId: string, enabled: boolean) {
  return useQuery({
    queryKey: releaseKeys.graded(assignmentId),
    queryFn: ({ signal }) => loadGradedIds(assignmentId, signal),
    enabled,
    staleTime: 0,
  });
}

/** What a release asks for: the given rows, or with none every reviewed result. */
export interface ReleaseInput {
  assignmentId: string;
  submissionIds?: string[];
  sendEmail: boolean;
}

/** Releases results (`db/assignment/release`); the list is refetched after. */
export function useRelease() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: ReleaseInput): Promise<ReleaseOutcome> => {
      const data = await api.post<{ releases?: unknown; skipped?: unknown; skippedNotReviewed?: unknown; skippedNotGraded?: unknown }>(
        '/api/v1/db/assignment/release',
        input,
      );
      const count = (value: unknown) => (typeof value === 'number' ? value : 0);
      return {
        releases: readReleases(data?.releases),
        skipped: count(data?.skipped),
        skippedNotReviewed: count(data?.skippedNotReviewed),
        skippedNotGraded: count(data?.skippedNotGraded),
      };
    },
    onSettled: (_data, _error, input) => client.invalidateQueries({ queryKey: releaseKeys.list(input.assignmentId) }),
  });
}

/** Closes the links of the given rows at once (`db/assignment/release/revoke`). */
export function useRevoke() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: { assignmentId: string; submissionIds: string[] }): Promise<Release[]> => {
      const data = await api.post<{ releases?: unknown }>('/api/v1/db/assignment/release/revoke', input);
      return readReleases(data?.releases);
    },
    onSettled: (_data, _error, input) => client.invalidateQueries({ queryKey: releaseKeys.list(input.assignmentId) }),
  });
}

/**
 * Downloads the CSV of the assignment's live links (student name, email, link) under the server's
 * file name. Returns that name.
 */
export async function downloadLinksCsv(assignmentId: string): Promise<string> {
  const file = await postForFile('/api/v1/db/assignment/release/links-csv', { assignmentId }, 'links.csv');
  saveBlob(file.blob, file.fileName);
  return file.fileName;
}
