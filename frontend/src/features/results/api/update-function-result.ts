import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../../../lib/api-client';
import { normalizeFunctionResult } from '../lib/normalize';
import { functionResultKeys } from './keys';
import type { FunctionResult, ResultStatus } from './types';

/** Said when a teacher's edit of a result is saved (spec §8). */
export const FEEDBACK_UPDATED_MESSAGE = 'Feedback updated successfully';

/** Said when it is not (spec §8). */
export const FEEDBACK_UPDATE_FAILED_MESSAGE = 'Error updating feedback';

/**
 * Said by the server when an edit was made from a result saved since (another tab, a colleague,
 * a tick still on its way): internal/result MsgChangedElsewhere. The page makes the edit again
 * from the result as it now is ({@link REBASES} times at most) before it says so.
 */
export const CHANGED_ELSEWHERE_MESSAGE =
  'This result was changed somewhere else (another tab or a colleague) since it was opened. Reload it to see the changes.';

/** How many times an edit refused as {@link CHANGED_ELSEWHERE_MESSAGE} is made again and sent. */
export const REBASES = 2;

/** Whether a save was refused because the result was saved somewhere else since it was read. */
export function changedElsewhere(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409 && error.message === CHANGED_ELSEWHERE_MESSAGE;
}

/** The fields of a result a teacher edits. */
export type ResultChanges = Partial<
  Pick<
    FunctionResult,
    'feedback' | 'overallComments' | 'highlightedText' | 'criteriaLevels' | 'criteriaPoints' | 'criteriaFeedback' | 'answers'
  >
>;

/** What {@link updateFunctionResult} takes. */
export interface UpdateFunctionResultInput {
  /** The result as last read. */
  result: FunctionResult;
  /** The assignment definition's `_id`. */
  functionId: string;
  /** What the teacher changed. */
  changes: ResultChanges;
  /**
   * `reviewed` (the server's default when unset) or the type's done status to un-review. The
   * result's own status is never sent back by itself: a stale `graded` would un-review it.
   */
  status?: ResultStatus;
  /** Sent as the page is hidden or left: the request outlives the page (fetch `keepalive`). */
  keepalive?: boolean;
}

/**
 * Saves a teacher's edit of a result (`POST db/functionResult/update`): the whole result with the
 * changes, `functionId` and `submissionId`. Resolves to the result as the server now has it. The
 * result's `updatedAt` goes with it: the server refuses the edit (409,
 * {@link CHANGED_ELSEWHERE_MESSAGE}) when the result was saved since, rather than let this whole
 * result undo what was saved meanwhile.
 */
export async function updateFunctionResult({ result, functionId, changes, status, keepalive }: UpdateFunctionResultInput): Promise<FunctionResult> {
  // Read-only fields (status, usage, flags, dropped highlights) stay out of the body.
  const { status: _status, usage: _usage, flags: _flags, droppedHighlights: _dropped, ...fields } = result;
  const body = {
    ...fields,
    ...changes,
    answers: changes.answers ?? result.answers,
    functionId,
    submissionId: result.submission,
    ...(status ? { status } : {}),
  };
  const data = await api.post<{ functionResult?: unknown } | undefined>('/api/v1/db/functionResult/update', body, keepalive ? { keepalive } : {});
  return data?.functionResult ? normalizeFunctionResult(data.functionResult) : { ...result, ...changes, status: status ?? 'reviewed' };
}

/** Saves a result edit and refreshes that submission's result. */
export function useUpdateFunctionResult() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateFunctionResult,
    onSuccess: (_saved, input) => queryClient.invalidateQueries({ queryKey: functionResultKeys.detail(input.result.submission) }),
  });
}
