import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';

/** How long fetched data counts as fresh before a remount refetches it. */
const STALE_TIME_MS = 30_000;

/** Retries a failed query once, except for client errors (4xx), which a retry cannot fix. */
function retryOnce(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 1;
}

/**
 * Creates a QueryClient with Markwell's defaults: one retry for queries (none for 4xx or
 * mutations), a short stale time, and no refetching on every window focus.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: retryOnce,
        staleTime: STALE_TIME_MS,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}

/** The application's shared QueryClient. */
export const queryClient = createQueryClient();
