import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ShareNotification } from '../types';
import { invalidateLibrary } from './invalidate';
import { libraryKeys } from './keys';

/**
 * Copies what a notification shares into the teacher's own library and closes the notification
 * (`POST /api/v1/db/notification/copySharedAssignment` or `…/copySharedRubric`, spec §7).
 */
export async function copySharedItem({ notification }: { notification: Pick<ShareNotification, '_id' | 'kind'> }): Promise<void> {
  const route = notification.kind === 'shared-rubric' ? 'copySharedRubric' : 'copySharedAssignment';
  await api.post(`/api/v1/db/notification/${route}`, { notificationId: notification._id, status: 'closed' });
}

/** Copies a shared item and refreshes the notifications and the library. */
export function useCopySharedItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: copySharedItem,
    onSuccess: (_data, { notification }) => {
      void queryClient.invalidateQueries({ queryKey: libraryKeys.notifications() });
      void invalidateLibrary(queryClient, { rubrics: notification.kind === 'shared-rubric' });
    },
  });
}
