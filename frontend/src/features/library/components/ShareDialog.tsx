import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useId, useState, type FormEvent } from 'react';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import { isValidEmail } from '../../../lib/validation';
import { useShareItem, type ShareKind } from '../api/share-item';

/** Props for {@link ShareDialog}. */
export interface ShareDialogProps {
  kind: ShareKind;
  id: string;
  name: string;
  onClose: () => void;
}

/**
 * Shares an assignment or rubric with a colleague by email. Success closes the dialog with
 * "Shared with {email}"; a refusal shows the server's message and keeps the dialog open.
 */
export function ShareDialog({ kind, id, name, onClose }: ShareDialogProps) {
  const share = useShareItem();
  const { showToast } = useToast();
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const titleId = useId();
  const invalid = !isValidEmail(email);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (invalid) return;
    share.mutate(
      { kind, id, email: email.trim() },
      {
        onSuccess: (sharedWith) => {
          showToast({ type: 'success', message: `Shared with ${sharedWith}` });
          onClose();
        },
        onError: (error) => showToast({ type: 'error', message: errorMessage(error, `Couldn't share the ${kind}. Please try again.`) }),
      },
    );
  };

  return (
    <Dialog open onClose={share.isPending ? undefined : onClose} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId} sx={{ overflowWrap: 'anywhere' }}>
          Share “{name}”
        </DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            Your colleague gets a notification and can copy the {kind} into their own library. Later changes here
            are not shared.
          </DialogContentText>
          <TextField
            autoFocus
            label="Colleague's email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            onBlur={() => setTouched(email !== '')}
            error={touched && invalid}
            helperText={touched && invalid ? 'Enter an email address like name@school.org' : ' '}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5, gap: 1 }}>
          <Button onClick={onClose} disabled={share.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" loading={share.isPending}>
            Share
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
