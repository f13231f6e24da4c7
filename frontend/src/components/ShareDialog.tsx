import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../lib/api-client';
import { isValidEmail } from '../lib/validation';
import { useToast } from './toast';

/** Props for {@link ShareDialog}. */
export interface ShareDialogProps {
  /** The shared item's name, shown in the title: Share “{name}”. */
  name: string;
  /** What is shared, in words: "assignment", "rubric". */
  noun: string;
  /**
   * Shares the item with the teacher at `email`. Resolves to the address it went to, if the
   * server says (the success toast names it); rejects with the server's refusal.
   */
  onShare: (email: string) => Promise<string | void>;
  onClose: () => void;
  /** Defaults to true, for callers that mount the dialog only while it is open. */
  open?: boolean;
}

/**
 * Shares an item with a colleague by email. Success closes the dialog with "Shared with {email}";
 * a refusal shows the server's message and keeps the dialog open. Nothing can be dismissed while
 * the share is under way.
 */
export function ShareDialog({ name, noun, onShare, onClose, open = true }: ShareDialogProps) {
  const { showToast } = useToast();
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const [pending, setPending] = useState(false);
  const titleId = useId();
  const invalid = !isValidEmail(email);

  const close = () => {
    if (pending) return;
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // The dialog renders in a portal, but React still bubbles its submit to any form around it.
    event.stopPropagation();
    setTouched(true);
    if (invalid || pending) return;
    const address = email.trim();
    setPending(true);
    try {
      const sharedWith = await onShare(address);
      showToast({ type: 'success', message: `Shared with ${sharedWith || address}` });
      setEmail('');
      setTouched(false);
      setPending(false);
      onClose();
    } catch (error) {
      showToast({ type: 'error', message: errorMessage(error, `Couldn't share the ${noun}. Please try again.`) });
      setPending(false);
    }
  };

  return (
    <Dialog open={open} onClose={close} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id={titleId} sx={{ overflowWrap: 'anywhere' }}>
          Share “{name}”
        </DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            Your colleague gets a notification and can copy the {noun} into their own library; if they haven&apos;t
            signed in to Markwell yet, it waits for their first sign-in. Later changes here are not shared.
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
          <Button onClick={close} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" loading={pending}>
            Share
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
