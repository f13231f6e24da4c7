import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ShareNotification } from '../types';
import { libraryKeys } from './keys';

/** Closes a notification without copying anything (`POST /api/v1/db/notification/dismiss`). */
export async function dismissNotification({ notificationId }: { notificationId: string }): Promise<void> {
  await api.post('/api/v1/db/notification/dismiss', { notificationId });
}

/** Dismisses a notification: it leaves the list at once and the list is refetched. */
export function useDismissNotification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: dismissNotification,
    onSuccess: (_data, { notificationId }) => {
      queryClient.setQueryData<ShareNotification[]>(libraryKeys.notifications(), (list) =>
        list?.map((n) => (n._id === notificationId ? { ...n, status: 'closed' as const } : n)),
      );
      return queryClient.invalidateQueries({ queryKey: libraryKeys.notifications() });
    },
  });
}
