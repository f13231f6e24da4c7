import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { LoadError } from '../../../components/LoadError';
import { pageSourceLabel } from '../../../lib/page-source';
import { useSubmission } from '../api/get-submission';
import type { Submission, SubmissionWithText } from '../api/types';

/** Text exactly as read: React escapes it, so markup in a student's work stays text. */
function PlainText({ text }: { text: string }) {
  return (
    <Box component="pre" sx={{ m: 0, fontFamily: 'inherit', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontSize: '0.9375rem', lineHeight: 1.6 }}>
      {text}
    </Box>
  );
}

function Body({ submission }: { submission: SubmissionWithText }) {
  const pages = submission.pages.filter((p) => p.text.trim() !== '');
  if (submission.status === 'failed') return <Alert severity="error">{submission.error || 'This file could not be read.'}</Alert>;
  if (submission.status !== 'ready') return <Alert severity="info">This submission is still being read. Check back in a moment.</Alert>;
  if (submission.pages.length > 1) {
    return (
      <>
        {submission.error && <Alert severity="warning" sx={{ mb: 2 }}>{submission.error}</Alert>}
        {submission.pages.map((page, index) => (
          <Box component="section" key={index} aria-label={`Page ${index + 1}`} sx={{ mb: 2.5 }}>
            <Typography variant="h6" component="h3" sx={{ mb: 0.5 }}>
              Page {index + 1}
              {pageSourceLabel(page) && (
                <Typography component="span" variant="body2" color="text.secondary">
                  {' '}· {pageSourceLabel(page)}
                </Typography>
              )}
            </Typography>
            {page.warning && (
              <Alert severity="warning" sx={{ mb: 1, py: 0 }}>
                {page.warning}
              </Alert>
            )}
            {page.text.trim() ? <PlainText text={page.text} /> : <Typography color="text.secondary">No text found on this page.</Typography>}
          </Box>
        ))}
      </>
    );
  }
  if (submission.text.trim() === '' && pages.length === 0) return <Typography color="text.secondary">No text was found in this file.</Typography>;
  const only = submission.pages[0];
  return (
    <>
      {submission.error && <Alert severity="warning" sx={{ mb: 2 }}>{only?.warning || submission.error}</Alert>}
      {only && pageSourceLabel(only) && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          Read from: {pageSourceLabel(only)}
        </Typography>
      )}
      <PlainText text={submission.text || pages.map((p) => p.text).join('\n\n')} />
    </>
  );
}

function TextContent({ submissionId }: { submissionId: string }) {
  const query = useSubmission(submissionId);
  if (query.isPending) {
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', py: 4 }}>
        <CircularProgress aria-label="Loading the text" />
      </Box>
    );
  }
  if (query.isError) return <LoadError message="We couldn't load this submission's text." onRetry={() => void query.refetch()} retrying={query.isFetching} />;
  return <Body submission={query.data} />;
}

/** Shows the text read from a submission (`submission/get`), page by page when it has pages. */
export function SubmissionTextDialog({ submission, onClose }: { submission: Submission | null; onClose: () => void }) {
  const titleId = useId();
  return (
    <Dialog open={submission !== null} onClose={onClose} maxWidth="md" fullWidth scroll="paper" aria-labelledby={titleId}>
      {submission && (
        <>
          <DialogTitle id={titleId} sx={{ overflowWrap: 'anywhere' }}>
            {submission.name}
          </DialogTitle>
          <DialogContent dividers>
            <TextContent submissionId={submission._id} />
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>Close</Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
