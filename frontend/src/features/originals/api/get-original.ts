import { queryOptions, useQuery } from '@tanstack/react-query';
import { getOriginal, getOriginalPage } from '../../../lib/original';
import { ApiError } from '../../../lib/api-client';

/** Query keys of originals and their pages. */
export const originalKeys = {
  all: ['original'] as const,
  detail: (submissionId: string) => ['original', submissionId] as const,
  page: (submissionId: string, page: number) => ['original', submissionId, 'page', page] as const,
};

/** Retries while the server is busy converting other files (429), and once for anything else but 4xx. */
function retry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status === 429) return failureCount < 5;
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 1;
}

/** Query options for a submission's original (kept for the session: a file does not change). */
export function originalQueryOptions(submissionId: string) {
  return queryOptions({
    queryKey: originalKeys.detail(submissionId),
    queryFn: ({ signal }) => getOriginal(submissionId, { signal }),
    staleTime: Infinity,
    retry,
    retryDelay: 3000,
  });
}

/** A submission's original. */
export function useOriginal(submissionId: string, enabled = true) {
  return useQuery({ ...originalQueryOptions(submissionId), enabled });
}

/** The signed URL of one page (0-based), fetched again before it expires. */
export function useOriginalPage(submissionId: string, page: number, enabled: boolean) {
  return useQuery({
    queryKey: originalKeys.page(submissionId, page),
    queryFn: ({ signal }) => getOriginalPage(submissionId, page, { signal }),
    enabled,
    staleTime: 5 * 60 * 1000,
    retry,
    retryDelay: 2000,
  });
}
