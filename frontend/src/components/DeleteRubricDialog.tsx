import { ApiError, errorMessage } from '../lib/api-client';
import { ConfirmDialog } from './ConfirmDialog';

/** Props for {@link DeleteRubricDialog}. */
export interface DeleteRubricDialogProps {
  open: boolean;
  /** The rubric's name, for the title. */
  name: string;
  /** The delete is running. */
  pending: boolean;
  /** The delete's failure, if it failed: a refusal (409) is shown in the dialog, anything else is not. */
  error: unknown;
  onConfirm: () => void;
  onClose: () => void;
}

/**
 * Asks before deleting a rubric from the team's library. The server refuses to delete a rubric an
 * assignment still grades against, naming the assignments; the refusal is shown in the dialog,
 * which stays open. Other failures show nothing and leave the dialog open (spec §8).
 */
export function DeleteRubricDialog({ open, name, pending, error, onConfirm, onClose }: DeleteRubricDialogProps) {
  return (
    <ConfirmDialog
      open={open}
      title={`Delete “${name}”?`}
      description="The rubric is removed from your team's library. This can't be undone. A rubric that an assignment still grades against can't be deleted: choose another rubric for that assignment or delete the assignment first."
      confirmLabel="Delete rubric"
      pending={pending}
      error={refusal(error)}
      onConfirm={onConfirm}
      onClose={onClose}
    />
  );
}

/** The server's reason for refusing the delete (409), or nothing. */
function refusal(error: unknown): string | undefined {
  return error instanceof ApiError && error.status === 409 ? errorMessage(error, 'An assignment still grades against this rubric.') : undefined;
}
