import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { functionResultKeys } from './keys';

/** What {@link updatePromptFeedback} takes. */
export interface UpdatePromptFeedbackInput {
  functionResultId: string;
  /** The submission the result belongs to, whose cached result is refreshed. */
  submissionId: string;
  feedback: string;
  /** Sent as the page is hidden or left: the request outlives the page (fetch `keepalive`). */
  keepalive?: boolean;
}

/** Saves a prompt result's feedback (`PUT db/promptFunctionResult/update` `{functionResultId, data: {feedback}}`). */
export async function updatePromptFeedback({ functionResultId, feedback, keepalive }: UpdatePromptFeedbackInput): Promise<void> {
  await api.put<{ success?: boolean }>('/api/v1/db/promptFunctionResult/update', { functionResultId, data: { feedback } }, keepalive ? { keepalive } : {});
}

/** Saves prompt feedback and refreshes that submission's result. */
export function useUpdatePromptFeedback() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePromptFeedback,
    onSuccess: (_data, input) => queryClient.invalidateQueries({ queryKey: functionResultKeys.detail(input.submissionId) }),
  });
}
