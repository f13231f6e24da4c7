import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Assistant } from '../types';
import { assistantKeys } from './keys';

/** Deletes an assistant (`POST db/assistant/delete`); chats made with it are kept. */
export async function deleteAssistant(assistantId: string): Promise<void> {
  await api.post('/api/v1/db/assistant/delete', { assistantId });
}

/** Deletes an assistant, drops it from the cached list at once and refreshes the list. */
export function useDeleteAssistant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAssistant,
    onSuccess: (_data, assistantId) => {
      queryClient.setQueryData<Assistant[]>(assistantKeys.list(), (list) => list?.filter((a) => a._id !== assistantId));
      void queryClient.invalidateQueries({ queryKey: assistantKeys.list() });
    },
  });
}
