import TaskAltRounded from '@mui/icons-material/TaskAltRounded';
import Button from '@mui/material/Button';
import { Link as RouterLink, useLocation, useParams } from 'react-router';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { StudentMessage } from './StudentMessage';

function assignmentNameOf(state: unknown): string | undefined {
  const name = (state as { assignmentName?: unknown } | null)?.assignmentName;
  return typeof name === 'string' && name !== '' ? name : undefined;
}

/** `/submit/:token/success`: the thank-you after a submission without instant feedback. */
export function SubmitSuccessPage() {
  const { token = '' } = useParams();
  const assignmentName = assignmentNameOf(useLocation().state);
  useDocumentTitle('Work submitted');
  return (
    <StudentMessage
      icon={<TaskAltRounded color="success" sx={{ fontSize: 48 }} aria-hidden="true" />}
      title="Thank you — your work was submitted"
      description={
        assignmentName
          ? `Your work for “${assignmentName}” is with your teacher. You can close this page.`
          : 'Your work is with your teacher. You can close this page.'
      }
      action={
        <Button component={RouterLink} to={`/submit/${encodeURIComponent(token)}`} variant="outlined">
          Submit another piece of work
        </Button>
      }
    />
  );
}
