import { useCallback, useRef } from 'react';

/** Options of {@link useSingleFlight}. */
export interface SingleFlightOptions {
  /**
   * Stay locked once the action has succeeded: for an action whose success leaves the screen
   * (navigates, closes the dialog, reloads), where the control stays clickable for a moment after
   * the response. A failure unlocks it, so the teacher can try again.
   */
  lockAfterSuccess?: boolean;
}

/**
 * Runs an action at most once at a time, so a double click on a button that creates something
 * creates one. The returned `run(action)` starts `action` unless an earlier one is still running
 * (or, with `lockAfterSuccess`, has succeeded); then it resolves to undefined without calling it.
 * `action`'s rejection is passed on. A mutation's `isPending` alone does not guard: it reaches the
 * component only after a re-render, and a fast second click (or a menu item clicked again while
 * its menu closes) can come first. Keep disabling the control with `isPending`, so it looks busy.
 */
export function useSingleFlight({ lockAfterSuccess = false }: SingleFlightOptions = {}) {
  const locked = useRef(false);
  return useCallback(
    async <T>(action: () => Promise<T>): Promise<T | undefined> => {
      if (locked.current) return undefined;
      locked.current = true;
      let succeeded = false;
      try {
        const value = await action();
        succeeded = true;
        return value;
      } finally {
        if (!succeeded || !lockAfterSuccess) locked.current = false;
      }
    },
    [lockAfterSuccess],
  );
}
