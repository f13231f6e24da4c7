import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { answerBoxKeys } from './keys';
import { normalizeBoxes } from './normalize';
import type { AnswerBoxes, AnswerBoxSample } from './types';

/**
 * Fetches an assignment's answer boxes and the submission they are drawn on
 * (`POST db/assignment/answer-boxes/get`). A foreign or unknown assignment rejects with 404.
 */
export async function getAnswerBoxes(assignmentId: string, options: { signal?: AbortSignal } = {}): Promise<AnswerBoxes> {
  const data = await api.post<{ boxes?: unknown; sample?: Partial<AnswerBoxSample> | null } | undefined>(
    '/api/v1/db/assignment/answer-boxes/get',
    { assignmentId },
    options,
  );
  const sample = data?.sample;
  return {
    boxes: normalizeBoxes(data?.boxes),
    sample:
      sample && typeof sample.submissionId === 'string' && sample.submissionId !== ''
        ? { submissionId: sample.submissionId, pageCount: Math.max(1, Math.floor(Number(sample.pageCount) || 1)) }
        : null,
  };
}

/** Query options for an assignment's answer boxes. */
export function answerBoxesQueryOptions(assignmentId: string) {
  return queryOptions({
    queryKey: answerBoxKeys.detail(assignmentId),
    queryFn: ({ signal }) => getAnswerBoxes(assignmentId, { signal }),
  });
}

/** An assignment's answer boxes and sample submission; `enabled` false skips the call. */
export function useAnswerBoxes(assignmentId: string, enabled = true) {
  return useQuery({ ...answerBoxesQueryOptions(assignmentId), enabled });
}
