import ErrorOutlineRounded from '@mui/icons-material/ErrorOutlineRounded';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, useMemo } from 'react';
import { useParams } from 'react-router';
import { LoadError } from '../../../components/LoadError';
import { ApiError } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useAssignmentViewOnly } from '../api/get-assignment-view-only';
import { useSubmissionViewOnly } from '../api/get-submission-view-only';
import { isBeingRead, type StudentSubmission } from '../api/types';
import { loadViewToken } from '../lib/view-token';
import { StudentMessage } from './StudentMessage';

/** Said when this browser holds no token for the result, or the server refuses it. */
export const RESULT_UNAVAILABLE_MESSAGE = 'This result is not available on this device.';

/** True when the server refuses the result (no or wrong token), rather than failing. */
function isRefused(error: unknown): boolean {
  return error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429;
}

function BeingRead() {
  return (
    <Card>
      <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
        <Typography component="p" variant="h3" sx={{ fontSize: '1.25rem', mb: 1 }}>
          Your work is being read…
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          This usually takes under a minute. Keep this page open: it updates by itself.
        </Typography>
        <LinearProgress aria-label="Reading your work" />
      </CardContent>
    </Card>
  );
}

function ReadWork({ submission }: { submission: StudentSubmission }) {
  const headingId = useId();
  const text = submission.text ?? '';
  return (
    <Stack spacing={2}>
      <Alert severity="info" variant="outlined" sx={{ bgcolor: 'background.paper' }}>
        Your work was received. Feedback will appear on this page when your teacher's AI grading runs.
      </Alert>
      {submission.error && (
        <Alert severity="warning" variant="outlined" sx={{ bgcolor: 'background.paper' }}>
          {submission.error}
        </Alert>
      )}
      <Card component="section" aria-labelledby={headingId}>
        <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
          <Typography id={headingId} variant="h2" sx={{ fontSize: '1.25rem', mb: 0.5 }}>
            Your work
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2, overflowWrap: 'anywhere' }}>
            {submission.name}
            {submission.pageCount > 0 && ` · ${submission.pageCount} ${submission.pageCount === 1 ? 'page' : 'pages'}`}
          </Typography>
          {text.trim() === '' ? (
            <Typography color="text.secondary">No text was found in your file.</Typography>
          ) : (
            <Box
              sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', lineHeight: 1.7, maxHeight: '70vh', overflowY: 'auto' }}
            >
              {text}
            </Box>
          )}
        </CardContent>
      </Card>
    </Stack>
  );
}

/**
 * `/student/view-result/:assignmentId/:submissionId`: a student's own submission, read with the
 * view token this tab was given at submission. It waits (polling) while the work is being read,
 * then shows the text; grading results will appear here too.
 */
export function ViewResultPage() {
  const { assignmentId = '', submissionId = '' } = useParams();
  const viewToken = useMemo(() => loadViewToken(submissionId), [submissionId]);
  const submission = useSubmissionViewOnly(submissionId, viewToken);
  const assignment = useAssignmentViewOnly(assignmentId, submissionId, viewToken, submission.isSuccess);
  const assignmentName = assignment.data?.name;
  useDocumentTitle(assignmentName ? `Your submission: ${assignmentName}` : 'Your submission');

  if (submission.isError && isRefused(submission.error)) {
    return (
      <StudentMessage
        title={RESULT_UNAVAILABLE_MESSAGE}
        description="A result opens only in the browser window the work was submitted from. Your teacher can still see your work."
      />
    );
  }

  const data = submission.data;
  let body;
  if (submission.isError) {
    body = (
      <LoadError
        message="Couldn't load your result. Check your connection and try again."
        onRetry={() => void submission.refetch()}
        retrying={submission.isFetching}
      />
    );
  } else if (!data || isBeingRead(data)) {
    body = <BeingRead />;
  } else if (data.status === 'failed') {
    body = (
      <Alert severity="error" variant="outlined" icon={<ErrorOutlineRounded />} sx={{ bgcolor: 'background.paper' }}>
        <AlertTitle>We couldn't read your work</AlertTitle>
        {data.error || 'The file could not be read.'} Ask your teacher what to do next.
      </Alert>
    );
  } else {
    body = <ReadWork submission={data} />;
  }

  return (
    <Stack spacing={3} sx={{ maxWidth: 760, mx: 'auto' }}>
      <div>
        <Typography variant="body2" color="text.secondary" sx={{ fontWeight: 500 }}>
          {data?.studentName ? `Submitted by ${data.studentName}` : 'Your submission'}
        </Typography>
        <Typography variant="h1" sx={{ fontSize: { xs: '1.625rem', sm: '2rem' }, overflowWrap: 'anywhere' }}>
          {assignmentName ?? 'Your submission'}
        </Typography>
      </div>
      {body}
    </Stack>
  );
}
