import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useToast } from '../../../components/toast';
import { ApiError, errorMessage } from '../../../lib/api-client';
import {
  changedElsewhere,
  FEEDBACK_UPDATE_FAILED_MESSAGE,
  FEEDBACK_UPDATED_MESSAGE,
  REBASES,
  useUpdateFunctionResult,
  type ResultChanges,
} from '../api/update-function-result';
import { functionResultKeys } from '../api/keys';
import type { FunctionResult } from '../api/types';

/** How {@link useSaveResult}'s `save` goes. */
export interface SaveResultOptions {
  /** Saved as the teacher types: no success toast (the screen says "Saved"). */
  quiet?: boolean;
  /** The page is being hidden or left: the request must outlive it. */
  keepalive?: boolean;
}

/**
 * Saving a teacher's edits of a result with `functionResult/update`, with the spec's toasts. The
 * result shown is the saved one from the moment the server answers, then follows `result` again
 * whenever the caller passes a newer one. Each save builds on the latest: the one the previous
 * save left, even before the screen has drawn it (a save queued behind another).
 */
export function useSaveResult(result: FunctionResult, functionId: string, onChanged?: () => void) {
  const mutation = useUpdateFunctionResult();
  const queryClient = useQueryClient();
  const { showToast } = useToast();
  const [saved, setSaved] = useState<{ from: FunctionResult; to: FunctionResult } | null>(null);
  const current = saved && saved.from === result ? saved.to : result;
  const latest = useRef({ result, current });
  useEffect(() => {
    latest.current = { result, current };
  });

  /** Saves `changes`, or what `changes` makes of the latest result. */
  const save = async (
    changes: ResultChanges | ((base: FunctionResult) => ResultChanges),
    { quiet = false, keepalive = false }: SaveResultOptions = {},
  ): Promise<boolean> => {
    let base = latest.current.current;
    try {
      let to: FunctionResult;
      for (let rebase = 0; ; rebase += 1) {
        try {
          to = await mutation.mutateAsync({ result: base, functionId, changes: typeof changes === 'function' ? changes(base) : changes, keepalive });
          break;
        } catch (error) {
          if (!changedElsewhere(error) || rebase >= REBASES) throw error;
          // Saved somewhere else meanwhile (another tab, a colleague): the edit is made again from
          // the result as it now is, so what was saved there stays.
          const key = functionResultKeys.detail(base.submission);
          await queryClient.refetchQueries({ queryKey: key, exact: true });
          const fresh = queryClient.getQueryData<FunctionResult>(key);
          if (!fresh) throw error;
          base = fresh;
        }
      }
      latest.current = { result: latest.current.result, current: to };
      setSaved({ from: latest.current.result, to });
      if (!quiet) showToast({ type: 'success', message: FEEDBACK_UPDATED_MESSAGE });
      onChanged?.();
      return true;
    } catch (error) {
      // A refused edit (400) says why in the teacher's words; anything else gets the spec's toast.
      const refused = (error instanceof ApiError && error.status === 400) || changedElsewhere(error);
      showToast({ type: 'error', message: refused ? errorMessage(error, FEEDBACK_UPDATE_FAILED_MESSAGE) : FEEDBACK_UPDATE_FAILED_MESSAGE });
      return false;
    }
  };
  return { current, save, saving: mutation.isPending };
}
