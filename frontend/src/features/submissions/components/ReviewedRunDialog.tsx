import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';

/** Props for {@link ReviewedRunDialog}. */
export interface ReviewedRunDialogProps {
  open: boolean;
  /** How many submissions the teacher asked to grade that can be graded. */
  total: number;
  /** How many more were asked but left out: their file could not be read. */
  unreadable?: number;
  /** How many of them the teacher reviewed (ticked, adjusted, commented…). */
  reviewed: number;
  /** The run verb: "Grade", "Annotate". */
  verb: string;
  /** Which button is running: the dialog stays open and cannot be dismissed meanwhile. */
  pending?: 'skip' | 'overwrite' | null;
  /** Grade the others and leave the reviewed ones as they are (the default). */
  onSkip: () => void;
  /** Grade the reviewed ones again too, replacing the teacher's changes. */
  onOverwrite: () => void;
  onClose: () => void;
}

function submissions(n: number): string {
  return `${n} ${n === 1 ? 'submission' : 'submissions'}`;
}

/**
 * Asks what to do with results the teacher reviewed before grading a selection: skip them (the
 * default, focused) or grade them again too. Cancel grades nothing. It counts only what can be
 * graded, and says how many were left out because their files could not be read.
 */
export function ReviewedRunDialog({ open, total, unreadable = 0, reviewed, verb, pending = null, onSkip, onOverwrite, onClose }: ReviewedRunDialogProps) {
  const titleId = useId();
  const descriptionId = useId();
  const one = reviewed === 1;
  const all = reviewed === total;
  const them = one ? 'it' : 'them';
  const title = all
    ? `You reviewed ${one ? 'this submission' : `all ${submissions(total)}`}`
    : `You reviewed ${reviewed} of the ${submissions(total)}`;
  const rest = total - reviewed;
  const skipping = all
    ? `Skipping keeps your ticks, adjustments and comments as they are, and nothing is ${verb === 'Grade' ? 'graded' : 'annotated'}.`
    : `Skipping keeps your ticks, adjustments and comments as they are and ${verb.toLowerCase()}s the other ${rest === 1 ? 'one' : rest}.`;
  const leftOut =
    unreadable > 0
      ? ` ${unreadable === 1 ? 'The 1 submission whose file could not be read is' : `The ${unreadable} submissions whose files could not be read are`} left out.`
      : '';
  return (
    <Dialog
      open={open}
      onClose={pending ? undefined : onClose}
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      maxWidth="sm"
      fullWidth
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={descriptionId}>
          {skipping} {`${verb === 'Grade' ? 'Grading' : 'Annotating'} ${them} again replaces your changes with the AI's new result.`}
          {leftOut}
        </DialogContentText>
      </DialogContent>
      {/* On a phone the buttons stack, the default on top. */}
      <DialogActions
        disableSpacing
        sx={{ px: 3, pb: 2.5, gap: 1, flexDirection: { xs: 'column-reverse', sm: 'row' }, alignItems: { xs: 'stretch', sm: 'center' } }}
      >
        <Button onClick={onClose} disabled={pending !== null} sx={{ mr: { sm: 'auto' } }}>
          Cancel
        </Button>
        <Button variant="outlined" color="error" onClick={onOverwrite} loading={pending === 'overwrite'} disabled={pending === 'skip'}>
          {`${verb} ${them} again too`}
        </Button>
        <Button variant="contained" onClick={onSkip} loading={pending === 'skip'} disabled={pending === 'overwrite'} autoFocus>
          {`Skip the ${one ? 'one' : reviewed} you reviewed`}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
