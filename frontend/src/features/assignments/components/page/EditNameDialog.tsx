import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { useToast } from '../../../../components/toast';
import { errorMessage } from '../../../../lib/api-client';
import { useUpdateAssignment } from '../../api/update-assignment';
import type { Assignment } from '../../api/types';
import { MAX_NAME_LENGTH } from '../wizard/NameField';
import { lengthHint } from '../../../../lib/length-hint';

/** Toast after the name is saved. */
export const SAVED_MESSAGE = 'Assignment saved';

/** Props for {@link EditNameDialog}. */
export interface EditNameDialogProps {
  assignment: Assignment;
  open: boolean;
  onClose: () => void;
}

/** Renames an assignment (`assignment/update`); stays open with the server's message on failure. */
export function EditNameDialog({ assignment, open, onClose }: EditNameDialogProps) {
  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="edit-assignment-name-title">
      {open && <EditNameForm assignment={assignment} onClose={onClose} />}
    </Dialog>
  );
}

function EditNameForm({ assignment, onClose }: { assignment: Assignment; onClose: () => void }) {
  const { showToast } = useToast();
  const [name, setName] = useState(assignment.name);
  const update = useUpdateAssignment();
  const empty = name.trim() === '';

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (empty || update.isPending) return;
    try {
      await update.mutateAsync({
        id: assignment._id,
        name: name.trim(),
        type: assignment.type,
        isHandWritten: assignment.isHandWritten,
        provideInstantFeedback: assignment.provideInstantFeedback,
      });
      showToast({ type: 'success', message: SAVED_MESSAGE });
      onClose();
    } catch (error) {
      showToast({ type: 'error', message: errorMessage(error, "We couldn't save the name. Please try again.") });
    }
  }

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)}>
      <DialogTitle id="edit-assignment-name-title">Edit assignment name</DialogTitle>
      <DialogContent>
        <TextField
          label="Assignment name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          autoFocus
          required
          autoComplete="off"
          error={empty}
          helperText={empty ? 'Enter a name.' : (lengthHint(name, MAX_NAME_LENGTH) ?? ' ')}
          slotProps={{ htmlInput: { maxLength: MAX_NAME_LENGTH } }}
          sx={{ mt: 1 }}
        />
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5, gap: 1 }}>
        <Button onClick={onClose} disabled={update.isPending}>
          Cancel
        </Button>
        <Button type="submit" variant="contained" disabled={empty} loading={update.isPending}>
          Save
        </Button>
      </DialogActions>
    </form>
  );
}
