import LinkOffRounded from '@mui/icons-material/LinkOffRounded';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useParams } from 'react-router';
import { LoadError } from '../../../components/LoadError';
import { PageSpinner } from '../../../components/PageSpinner';
import { ApiError } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useLinkAssignment } from '../api/get-link-assignment';
import { StudentMessage } from './StudentMessage';
import { SubmitForm } from './SubmitForm';

/** Said when a link is turned off, rotated away or never existed. */
export const LINK_UNAVAILABLE_MESSAGE = 'This submission link is turned off or does not exist.';

/** True when the server says the link does not lead anywhere (rather than failing). */
function isUnavailable(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 400);
}

/** `/submit/:token`: the assignment a student link leads to and the form to submit work for it. */
export function SubmitPage() {
  const { token = '' } = useParams();
  const query = useLinkAssignment(token);
  // The server refused a submission as not found: the link is looked up again, and the page says
  // so (and that the work was not sent) when it has been turned off or replaced meanwhile.
  const [refusedOnSubmit, setRefusedOnSubmit] = useState(false);
  useDocumentTitle(query.data ? `Submit: ${query.data.name}` : 'Submit your work');

  if (query.isPending) return <PageSpinner label="Loading the assignment" />;
  if (query.isError && isUnavailable(query.error)) {
    return (
      <StudentMessage
        icon={<LinkOffRounded color="action" sx={{ fontSize: 40 }} aria-hidden="true" />}
        title={LINK_UNAVAILABLE_MESSAGE}
        description={
          refusedOnSubmit
            ? 'Your work was not submitted: the link was turned off or replaced. Ask your teacher for the current link.'
            : 'Ask your teacher for the current link.'
        }
      />
    );
  }
  // A failed look-up after a refused submission keeps the form (and what was typed) on screen.
  if (!query.data) {
    return (
      <LoadError
        message="Couldn't load this page. Check your connection and try again."
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  }

  const assignment = query.data;
  return (
    <Stack spacing={3} sx={{ maxWidth: 640, mx: 'auto' }}>
      <div>
        <Typography variant="body2" color="text.secondary" sx={{ fontWeight: 500 }}>
          Submit your work
        </Typography>
        <Typography variant="h1" sx={{ fontSize: { xs: '1.625rem', sm: '2rem' }, overflowWrap: 'anywhere' }}>
          {assignment.name}
        </Typography>
      </div>
      <SubmitForm
        linkToken={token}
        assignment={assignment}
        onNotFound={() => {
          setRefusedOnSubmit(true);
          void query.refetch();
        }}
      />
    </Stack>
  );
}
