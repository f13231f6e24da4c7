import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Assistant, AssistantInput } from '../types';
import { assistantKeys } from './keys';

/** Creates an assistant (`POST db/assistant/put`); a 400 carries the message to show. */
export async function createAssistant(input: AssistantInput): Promise<Assistant> {
  const data = await api.post<{ assistant: Assistant }>('/api/v1/db/assistant/put', input);
  return data.assistant;
}

/** What {@link updateAssistant} takes: the assistant's id and all its fields. */
export interface UpdateAssistantInput extends AssistantInput {
  assistantId: string;
}

/**
 * Saves changes to an assistant (`POST db/assistant/update`). 403 when the teacher is neither
 * its author nor the team's owner.
 */
export async function updateAssistant(input: UpdateAssistantInput): Promise<Assistant> {
  const data = await api.post<{ assistant: Assistant }>('/api/v1/db/assistant/update', input);
  return data.assistant;
}

/** Creates an assistant and refreshes the list. */
export function useCreateAssistant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAssistant,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: assistantKeys.list() }),
  });
}

/** Updates an assistant and refreshes the list. */
export function useUpdateAssistant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAssistant,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: assistantKeys.list() }),
  });
}
