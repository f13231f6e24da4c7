import TaskAltRounded from '@mui/icons-material/TaskAltRounded';
import Button from '@mui/material/Button';
import { Navigate, Link as RouterLink, useLocation, useParams } from 'react-router';
import { useDocumentTitle } from '../../../lib/use-document-title';
import type { SubmittedState } from './SubmitForm';
import { StudentMessage } from './StudentMessage';

/**
 * What the form left in this history entry when it submitted from this tab, or null: an address
 * typed, pasted or opened afresh carries none.
 */
function submittedOf(state: unknown): SubmittedState | null {
  const s = state as Partial<SubmittedState> | null;
  if (s?.submitted !== true) return null;
  return {
    submitted: true,
    assignmentName: typeof s.assignmentName === 'string' ? s.assignmentName : '',
    allowResubmission: s.allowResubmission === true,
  };
}

/**
 * `/submit/:token/success`: the thank-you after a submission without instant feedback. Only a
 * submission made from this tab reaches it; opened otherwise, it goes to the submission page
 * (which says so when the link is turned off). "Submit another piece of work" is offered only
 * when the link takes a student's next attempt.
 */
export function SubmitSuccessPage() {
  const { token = '' } = useParams();
  const submitted = submittedOf(useLocation().state);
  useDocumentTitle(submitted ? 'Work submitted' : 'Submit your work');
  const submitPath = `/submit/${encodeURIComponent(token)}`;
  if (!submitted) return <Navigate to={submitPath} replace />;
  return (
    <StudentMessage
      icon={<TaskAltRounded color="success" sx={{ fontSize: 48 }} aria-hidden="true" />}
      title="Thank you — your work was submitted"
      description={
        submitted.assignmentName
          ? `Your work for “${submitted.assignmentName}” is with your teacher. You can close this page.`
          : 'Your work is with your teacher. You can close this page.'
      }
      action={
        submitted.allowResubmission ? (
          <Button component={RouterLink} to={submitPath} variant="outlined">
            Submit another piece of work
          </Button>
        ) : undefined
      }
    />
  );
}
