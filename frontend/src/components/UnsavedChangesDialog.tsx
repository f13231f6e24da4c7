import { useCallback, useEffect, useRef, type ReactNode } from 'react';
import { useBlocker, type BlockerFunction } from 'react-router';
import { useBeforeUnload } from '../lib/use-before-unload';
import { ConfirmDialog } from './ConfirmDialog';

/** What {@link useUnsavedChangesGuard} returns. */
export interface UnsavedChangesGuard {
  /** The "Discard your changes?" dialog; render it somewhere on the page. */
  dialog: ReactNode;
  /**
   * Lets the page leave without asking: call it just before leaving on success. It holds until
   * the page has unsaved changes again (a page that stays, like a chat saved for the first time).
   */
  allowLeave: () => void;
}

/** The dialog's words, when a page says it its own way. */
export interface UnsavedChangesWording {
  title: string;
  description: string;
  confirmLabel: string;
  cancelLabel: string;
}

const DISCARD: UnsavedChangesWording = {
  title: 'Discard your changes?',
  description: 'You have changes that are not saved. If you leave this page they will be lost.',
  confirmLabel: 'Discard',
  cancelLabel: 'Keep editing',
};

/**
 * While `dirty`, closing or reloading the tab makes the browser ask, and leaving for another page
 * of the app (a link, the browser's Back) first asks "Discard your changes?", with Keep editing
 * focused. Moves that keep the page (only the query changes, e.g. a wizard's `?step=`) pass.
 * Needs a data router (`createBrowserRouter`), for react-router's `useBlocker`.
 */
export function useUnsavedChangesGuard(dirty: boolean, wording: UnsavedChangesWording = DISCARD): UnsavedChangesGuard {
  const allowed = useRef(false);
  useEffect(() => {
    if (!dirty) allowed.current = false;
  }, [dirty]);
  useBeforeUnload(dirty);
  const blocker = useBlocker(
    useCallback<BlockerFunction>(
      ({ currentLocation, nextLocation }) =>
        dirty && !allowed.current && currentLocation.pathname !== nextLocation.pathname,
      [dirty],
    ),
  );
  const allowLeave = useCallback(() => {
    allowed.current = true;
  }, []);

  const dialog = (
    <ConfirmDialog
      open={blocker.state === 'blocked'}
      title={wording.title}
      description={wording.description}
      cancelLabel={wording.cancelLabel}
      confirmLabel={wording.confirmLabel}
      onClose={() => blocker.reset?.()}
      onConfirm={() => blocker.proceed?.()}
    />
  );
  return { dialog, allowLeave };
}
