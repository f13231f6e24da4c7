import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { answerBoxKeys } from './keys';
import { normalizeBoxes } from './normalize';
import type { AnswerBox, AnswerBoxes } from './types';

/** What `db/assignment/answer-boxes/update` takes: every box of the assignment. */
export interface AnswerBoxesUpdate {
  assignmentId: string;
  boxes: AnswerBox[];
}

/**
 * Replaces an assignment's answer boxes (`POST db/assignment/answer-boxes/update`); the server
 * then crops every submission's answers. Rejects with 400 and a message for boxes it refuses.
 */
export async function updateAnswerBoxes(input: AnswerBoxesUpdate): Promise<AnswerBox[]> {
  const data = await api.post<{ boxes?: unknown } | undefined>('/api/v1/db/assignment/answer-boxes/update', input);
  return normalizeBoxes(data?.boxes);
}

/** Saves an assignment's answer boxes and puts the saved boxes in the cache. */
export function useUpdateAnswerBoxes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAnswerBoxes,
    onSuccess: (boxes, input) =>
      queryClient.setQueryData<AnswerBoxes>(answerBoxKeys.detail(input.assignmentId), (old) =>
        old ? { ...old, boxes } : old,
      ),
  });
}
