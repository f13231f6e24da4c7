import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useId, useState, type FormEvent } from 'react';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import { isValidEmail } from '../../../lib/validation';
import type { AssignmentQueryKey } from '../api/keys';
import type { Submission } from '../api/types';
import { useUpdateSubmission } from '../api/update-submission';

/** Toasts of the spec for setting a student's email (§8). */
export const EMAIL_SET_MESSAGE = 'Email set successfully.';
/** Shown when the email could not be set. */
export const EMAIL_FAILED_MESSAGE = 'Failed to set email.';

/** Which field the dialog edits. */
export type SubmissionField = 'name' | 'email';

/** Props for {@link EditSubmissionDialog}. */
export interface EditSubmissionDialogProps {
  /** The submission to edit; null keeps the dialog closed. */
  submission: Submission | null;
  field: SubmissionField;
  assignmentQueryKey: AssignmentQueryKey;
  onClose: () => void;
}

/** Renames a submission or sets its student's email (`submission/update`). */
export function EditSubmissionDialog({ submission, field, assignmentQueryKey, onClose }: EditSubmissionDialogProps) {
  const titleId = useId();
  return (
    <Dialog open={submission !== null} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby={titleId}>
      {submission && (
        <EditForm key={`${submission._id}-${field}`} submission={submission} field={field} titleId={titleId} assignmentQueryKey={assignmentQueryKey} onClose={onClose} />
      )}
    </Dialog>
  );
}

function EditForm({
  submission,
  field,
  titleId,
  assignmentQueryKey,
  onClose,
}: { submission: Submission; field: SubmissionField; titleId: string; assignmentQueryKey: AssignmentQueryKey; onClose: () => void }) {
  const { showToast } = useToast();
  const update = useUpdateSubmission(assignmentQueryKey);
  const [value, setValue] = useState(field === 'name' ? submission.name : submission.studentEmail);
  const [touched, setTouched] = useState(false);
  // Also said inside the dialog: while it is open, the page behind it (and its toast) is hidden
  // from screen readers.
  const [failure, setFailure] = useState<string | null>(null);
  const trimmed = value.trim();
  const problem =
    field === 'name'
      ? trimmed === '' && 'Enter a name.'
      : trimmed !== '' && !isValidEmail(trimmed) && 'Enter an email address like name@school.org, or leave it empty.';

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setTouched(true);
    if (problem || update.isPending) return;
    setFailure(null);
    try {
      await update.mutateAsync({
        submissionId: submission._id,
        submission: field === 'name' ? { name: trimmed } : { studentEmail: trimmed },
      });
      showToast({ type: 'success', message: field === 'name' ? 'Submission renamed.' : EMAIL_SET_MESSAGE });
      onClose();
    } catch (error) {
      const message = field === 'name' ? errorMessage(error, "We couldn't rename the submission. Please try again.") : EMAIL_FAILED_MESSAGE;
      setFailure(message);
      showToast({ type: 'error', message });
    }
  }

  const showProblem = touched && Boolean(problem);
  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)}>
      <DialogTitle id={titleId} sx={{ overflowWrap: 'anywhere' }}>
        {field === 'name' ? 'Rename submission' : `Student email for ${submission.name}`}
      </DialogTitle>
      <DialogContent>
        <TextField
          label={field === 'name' ? 'Submission name' : 'Student email'}
          type={field === 'email' ? 'email' : 'text'}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          autoFocus
          required={field === 'name'}
          autoComplete="off"
          error={showProblem}
          helperText={showProblem ? problem : ' '}
          slotProps={{ htmlInput: { maxLength: field === 'name' ? 255 : 320 } }}
          sx={{ mt: 1 }}
        />
        {failure && <Alert severity="error">{failure}</Alert>}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5, gap: 1 }}>
        <Button onClick={onClose} disabled={update.isPending}>
          Cancel
        </Button>
        <Button type="submit" variant="contained" loading={update.isPending}>
          Save
        </Button>
      </DialogActions>
    </form>
  );
}
