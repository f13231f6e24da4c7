import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api, CSRF_HEADER, getCsrfToken } from '../../../lib/api-client';
import { readReleases, type Release, type ReleaseOutcome } from './types';

/** The query keys of this feature. */
export const releaseKeys = {
  all: ['releases'] as const,
  list: (assignmentId: string) => ['releases', assignmentId] as const,
};

/** One release per submission of an assignment, released or not (`db/assignment/release/list`). */
export async function listReleases(assignmentId: string, options: { signal?: AbortSignal } = {}): Promise<Release[]> {
  const data = await api.post<{ releases?: unknown }>('/api/v1/db/assignment/release/list', { assignmentId }, options);
  return readReleases(data?.releases);
}

/** How often the list is asked again while an email waits to be sent. */
export const EMAIL_POLL_MS = 3000;

export function releasesQueryOptions(assignmentId: string) {
  return queryOptions({
    queryKey: releaseKeys.list(assignmentId),
    queryFn: ({ signal }) => listReleases(assignmentId, { signal }),
    refetchInterval: (query) => (query.state.data?.some((r) => r.email === 'queued') ? EMAIL_POLL_MS : false),
  });
}

/** The assignment's releases, polled while emails are queued. */
export function useReleases(assignmentId: string) {
  return useQuery(releasesQueryOptions(assignmentId));
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
      const data = await api.post<{ releases?: unknown; skipped?: unknown }>('/api/v1/db/assignment/release', input);
      return { releases: readReleases(data?.releases), skipped: typeof data?.skipped === 'number' ? data.skipped : 0 };
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

/** The file name a Content-Disposition header gives (RFC 6266, with RFC 5987's filename*). */
export function fileNameFrom(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const star = /filename\*=(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1]);
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename="?([^";]+)"?/.exec(disposition);
  return plain?.[1] ?? fallback;
}

/**
 * Downloads the CSV of the assignment's live links (student name, email, link) under the server's
 * file name. Returns that name.
 */
export async function downloadLinksCsv(assignmentId: string): Promise<string> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'text/csv, application/json' };
  const token = await getCsrfToken();
  if (token) headers[CSRF_HEADER] = token;
  let res: Response;
  try {
    res = await fetch('/api/v1/db/assignment/release/links-csv', {
      method: 'POST',
      headers,
      body: JSON.stringify({ assignmentId }),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, {});
  }
  if (!res.ok) {
    let body: unknown = {};
    try {
      body = await res.json();
    } catch {
      body = {};
    }
    throw new ApiError(res.status, typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {});
  }
  const name = fileNameFrom(res.headers.get('Content-Disposition'), 'links.csv');
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}
