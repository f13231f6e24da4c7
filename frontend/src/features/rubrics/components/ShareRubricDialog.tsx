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
import { useShareRubric } from '../api/share-rubric';

/** Props for {@link ShareRubricDialog}. */
export interface ShareRubricDialogProps {
  open: boolean;
  rubricId: string;
  rubricName: string;
  onClose: () => void;
}

/**
 * Asks for a colleague's email and shares the saved rubric with them. Success closes the dialog
 * with "Shared with {email}"; a refusal shows the server's message and keeps the dialog open.
 */
export function ShareRubricDialog({ open, rubricId, rubricName, onClose }: ShareRubricDialogProps) {
  const share = useShareRubric();
  const { showToast } = useToast();
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const titleId = useId();
  const invalid = !isValidEmail(email);

  const close = () => {
    if (share.isPending) return;
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The dialog renders in a portal, but React still bubbles its submit to the editor's form.
    event.stopPropagation();
    setTouched(true);
    if (invalid) return;
    const address = email.trim();
    share.mutate(
      { rubricId, email: address },
      {
        onSuccess: (sharedWith) => {
          showToast({ type: 'success', message: `Shared with ${sharedWith}` });
          setEmail('');
          setTouched(false);
          onClose();
        },
        onError: (error) => showToast({ type: 'error', message: errorMessage(error, "Couldn't share the rubric. Please try again.") }),
      },
    );
  };

  return (
    <Dialog open={open} onClose={close} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId} sx={{ overflowWrap: 'anywhere' }}>
          Share “{rubricName}”
        </DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            Your colleague gets a notification and can copy the rubric into their own library. Later changes
            here are not shared.
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
          <Button onClick={close} disabled={share.isPending}>
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
