import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Assistant } from '../types';
import { assistantKeys } from './keys';

/** Saves an assistant for the team (`POST db/team/addSavedAssistant`); saving twice is fine. */
export async function addSavedAssistant(assistantId: string): Promise<void> {
  await api.post('/api/v1/db/team/addSavedAssistant', { assistantId });
}

/** Stops saving an assistant for the team (`POST db/team/removeSavedAssistant`). */
export async function removeSavedAssistant(assistantId: string): Promise<void> {
  await api.post('/api/v1/db/team/removeSavedAssistant', { assistantId });
}

/** Saves (`saved: true`) or unsaves an assistant for the team, then refreshes the list. */
export function useSetSavedForTeam() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ assistantId, saved }: { assistantId: string; saved: boolean }) =>
      saved ? addSavedAssistant(assistantId) : removeSavedAssistant(assistantId),
    onSuccess: (_data, { assistantId, saved }) => {
      queryClient.setQueryData<Assistant[]>(assistantKeys.list(), (list) =>
        list?.map((a) => (a._id === assistantId ? { ...a, isSaved: saved } : a)),
      );
      void queryClient.invalidateQueries({ queryKey: assistantKeys.list() });
    },
  });
}
