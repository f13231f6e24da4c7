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
