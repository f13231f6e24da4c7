import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ShareNotification } from '../types';
import { libraryKeys } from './keys';

/** How often the bell asks for new notifications. */
export const NOTIFICATION_POLL_MS = 30_000;

/** Fetches the teacher's notifications, open first, newest first (`GET /api/v1/db/notification/list`). */
export async function listNotifications(options: { signal?: AbortSignal } = {}): Promise<ShareNotification[]> {
  const data = await api.get<{ notifications?: ShareNotification[] } | undefined>('/api/v1/db/notification/list', options);
  return data?.notifications ?? [];
}

/** Query options for the notifications: polled every 30 s and refetched when the tab regains focus. */
export function notificationsQueryOptions() {
  return queryOptions({
    queryKey: libraryKeys.notifications(),
    queryFn: ({ signal }) => listNotifications({ signal }),
    refetchInterval: NOTIFICATION_POLL_MS,
    refetchOnWindowFocus: 'always',
    staleTime: 0,
  });
}

/** The teacher's notifications, kept fresh. */
export function useNotifications() {
  return useQuery(notificationsQueryOptions());
}
