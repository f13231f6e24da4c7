import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { postForFile, saveBlob } from '../../../lib/download';
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

/**
 * Downloads the CSV of the assignment's live links (student name, email, link) under the server's
 * file name. Returns that name.
 */
export async function downloadLinksCsv(assignmentId: string): Promise<string> {
  const file = await postForFile('/api/v1/db/assignment/release/links-csv', { assignmentId }, 'links.csv');
  saveBlob(file.blob, file.fileName);
  return file.fileName;
}
