import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../../lib/api-client';
import { assignmentHistoryKeys } from '../../../../lib/query-keys';

/** One saved change of an assignment (`POST db/assignment/history`). */
export interface AssignmentChange {
  _id: string;
  createdAt: string;
  user: { _id: string | null; name: string; email: string };
  /** Sentences such as "changed the points of 2a: 2 → 3 (“Names chlorophyll”)". */
  changes: string[];
}

/** The history's cache key (src/lib/query-keys), under the assignment's so a save refreshes it. */
export const historyKey = assignmentHistoryKeys.of;

/** An assignment's changes, newest first. */
export function useAssignmentHistory(assignmentId: string) {
  return useQuery(
    queryOptions({
      queryKey: historyKey(assignmentId),
      queryFn: async ({ signal }) => {
        const data = await api.post<{ history?: AssignmentChange[] }>('/api/v1/db/assignment/history', { assignmentId }, { signal });
        return data?.history ?? [];
      },
    }),
  );
}

/**
 * The cache key of how many results are released: under the release feature's key of the
 * assignment (`['releases', assignmentId]`, its `releaseKeys.list`), so releasing or revoking
 * refreshes it. Features do not import each other, hence the key written out.
 */
export const releasedCountKey = (assignmentId: string) => ['releases', assignmentId, 'released-count'] as const;

/**
 * How many of the assignment's results are released to their students now (their link is live,
 * `db/assignment/release/list`): those students see a change of the definition at once.
 */
export function useReleasedCount(assignmentId: string) {
  return useQuery(
    queryOptions({
      queryKey: releasedCountKey(assignmentId),
      queryFn: async ({ signal }) => {
        const data = await api.post<{ releases?: unknown }>('/api/v1/db/assignment/release/list', { assignmentId }, { signal });
        const releases = Array.isArray(data?.releases) ? (data.releases as unknown[]) : [];
        return releases.filter((r) => typeof r === 'object' && r !== null && (r as { state?: unknown }).state === 'released').length;
      },
    }),
  );
}
