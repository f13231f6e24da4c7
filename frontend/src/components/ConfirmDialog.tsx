import { useState, type ReactNode } from 'react';
import { lazyComponent } from './lazy-component';

/** Props for {@link ConfirmDialog}. */
export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  description: ReactNode;
  /** Label of the confirming button, e.g. "Remove". */
  confirmLabel: string;
  /** Label of the button that keeps things as they are (focused first); "Cancel" unless given. */
  cancelLabel?: string;
  onConfirm: () => void;
  onClose: () => void;
  /** The confirmed action is running: the confirm button spins and nothing can be dismissed. */
  pending?: boolean;
  /** Colours the confirm button as a destructive action. */
  destructive?: boolean;
  /** Why the action was refused (e.g. the server's message), shown in the dialog under the description. */
  error?: string;
}

const ConfirmDialogBody = lazyComponent(() => import('./ConfirmDialogBody').then((m) => m.ConfirmDialogBody), null, { prefetch: true });

/**
 * Asks "are you sure?" before an action that is hard to undo. Cancel (or `cancelLabel`) is focused first. The dialog
 * (MUI's Dialog) loads from its own chunk the first time one opens, so a page that only might ask
 * does not download it before it draws (docs/performance.md, "First load"); it downloads once the
 * page is idle, so it still opens offline. Once open it stays drawn, so it closes with its transition.
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const [opened, setOpened] = useState(props.open);
  if (props.open && !opened) setOpened(true);
  return opened ? <ConfirmDialogBody {...props} /> : null;
}
