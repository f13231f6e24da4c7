import { useQueryClient } from '@tanstack/react-query';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import { functionResultKeys } from '../api/keys';
import type { FunctionResult, ResultStatus } from '../api/types';
import {
  changedElsewhere,
  FEEDBACK_UPDATE_FAILED_MESSAGE,
  REBASES,
  useUpdateFunctionResult,
  type ResultChanges,
} from '../api/update-function-result';

/** One edit of a result: how it changes the result, and how to take it back if saving fails. */
export interface ResultEdit {
  apply: (result: FunctionResult) => FunctionResult;
  /** Unset: a failed edit stays shown (a typed change the screen keeps to save again). */
  revert?: (result: FunctionResult) => FunctionResult;
  /** The fields to send, read from the edited result. */
  changes: (edited: FunctionResult) => ResultChanges;
  /** The status to send (unset: the server marks the result reviewed). */
  status?: ResultStatus;
  /** Said when it fails and the server gave no reason. */
  failure?: string;
  /** The page is being hidden or left: the request must outlive it. */
  keepalive?: boolean;
}

/**
 * Saves edits of one submission's result with `functionResult/update`, optimistically: the edit
 * shows at once and is taken back (with an error toast) if the save fails. Only the edit is taken
 * back, so criteria toggled meanwhile stay. `onChanged` runs after each save.
 *
 * The page sends the whole result, so each save says which result it was made from
 * (`updatedAt`): when the result was saved since (another tab, a colleague, a tick of this page
 * still on its way), the server refuses it, and the edit is made again from the result as it now
 * is and sent again. Another tab's comment is kept beside this one's, never overwritten.
 */
export function useResultEdit(submissionId: string, functionId: string, onChanged?: () => void) {
  const queryClient = useQueryClient();
  const mutation = useUpdateFunctionResult();
  const { showToast } = useToast();
  const queryKey = functionResultKeys.detail(submissionId);

  const save = async ({ apply, revert, changes, status, failure = FEEDBACK_UPDATE_FAILED_MESSAGE, keepalive }: ResultEdit): Promise<boolean> => {
    const current = queryClient.getQueryData<FunctionResult>(queryKey);
    if (!current) return false;
    // A read on its way would bring back the result without the edit. A page being left cannot
    // wait for it to stop: the save goes at once.
    const cancelled = queryClient.cancelQueries({ queryKey });
    if (!keepalive) await cancelled;
    let edited = apply(queryClient.getQueryData<FunctionResult>(queryKey) ?? current);
    queryClient.setQueryData(queryKey, edited);
    try {
      for (let rebase = 0; ; rebase += 1) {
        try {
          const saved = await mutation.mutateAsync({ result: edited, functionId, changes: changes(edited), status, keepalive });
          // The next save is made from this one: it says so with the result's new updatedAt.
          const basis = edited.updatedAt;
          queryClient.setQueryData<FunctionResult>(queryKey, (now) =>
            now && now.updatedAt === basis && saved.updatedAt ? { ...now, updatedAt: saved.updatedAt } : now,
          );
          break;
        } catch (error) {
          if (!changedElsewhere(error) || rebase >= REBASES) throw error;
          // Saved somewhere else meanwhile: read it, and make the edit again from it.
          await queryClient.refetchQueries({ queryKey, exact: true });
          edited = apply(queryClient.getQueryData<FunctionResult>(queryKey) ?? edited);
          queryClient.setQueryData(queryKey, edited);
        }
      }
      onChanged?.();
      return true;
    } catch (error) {
      const now = queryClient.getQueryData<FunctionResult>(queryKey);
      if (now && revert) queryClient.setQueryData(queryKey, revert(now));
      showToast({ type: 'error', message: errorMessage(error, failure) });
      return false;
    }
  };
  return { save, saving: mutation.isPending, failed: mutation.isError };
}
