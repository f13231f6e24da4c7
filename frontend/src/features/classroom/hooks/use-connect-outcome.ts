import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { useToast } from '../../../components/toast';
import { classroomKeys } from '../api/keys';
import { CONNECTED_MESSAGE, OUTCOME_PARAM, outcomeError } from '../lib/connect';

/**
 * Reads `?googleClassroom=` once, when the teacher comes back from Google's consent screen: toasts
 * the outcome, refreshes what depends on the connection and drops the parameter from the address
 * (replacing the history entry, so Back does not toast again).
 */
export function useConnectOutcome() {
  const [params, setParams] = useSearchParams();
  const { showToast } = useToast();
  const queryClient = useQueryClient();
  const handled = useRef(false);
  const outcome = params.get(OUTCOME_PARAM);

  useEffect(() => {
    if (outcome === null || handled.current) return;
    handled.current = true;
    if (outcome === 'connected') {
      showToast({ type: 'success', message: CONNECTED_MESSAGE });
      void queryClient.invalidateQueries({ queryKey: classroomKeys.all });
    } else {
      showToast({ type: 'error', message: outcomeError(outcome) });
    }
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(OUTCOME_PARAM);
        return next;
      },
      { replace: true },
    );
  }, [outcome, queryClient, setParams, showToast]);
}
