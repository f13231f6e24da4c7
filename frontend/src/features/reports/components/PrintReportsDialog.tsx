import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { inProgress, type ReportRun } from '../api/reports';
import { useReportRun } from '../hooks/use-report-run';

/** Props for {@link PrintReportsDialog}. */
export interface PrintReportsDialogProps {
  open: boolean;
  assignmentId: string;
  /** True while the run is being asked for. */
  starting: boolean;
  /** Why the run could not be started, if it could not. */
  startError: unknown;
  onRetry: () => void;
  onClose: () => void;
}

function plural(n: number): string {
  return `${n} ${n === 1 ? 'report' : 'reports'}`;
}

function Progress({ run, labelId }: { run: ReportRun | null | undefined; labelId: string }) {
  const total = run?.total ?? 0;
  const done = Math.min(run?.done ?? 0, total);
  const determinate = run?.status === 'running' && total > 0;
  const text = !run || run.status === 'queued' ? 'Waiting for the server to start…' : `Made ${done} of ${plural(total)}…`;
  return (
    <Stack spacing={1}>
      <Typography id={labelId} aria-live="polite">
        {text}
      </Typography>
      <LinearProgress
        aria-labelledby={labelId}
        variant={determinate ? 'determinate' : 'indeterminate'}
        value={determinate ? Math.round((done / total) * 100) : undefined}
      />
      <Typography variant="body2" color="text.secondary">
        You can close this window: the reports keep being made, and “Print reports” shows them when they are ready.
      </Typography>
    </Stack>
  );
}

/**
 * The progress of a "Print reports" run (polled every 2 s while it is made), then the links to
 * download every report as a ZIP and to print them all as one PDF; errors are shown with "Try again".
 */
export function PrintReportsDialog({ open, assignmentId, starting, startError, onRetry, onClose }: PrintReportsDialogProps) {
  const titleId = useId();
  const labelId = useId();
  const query = useReportRun(assignmentId, open && !starting);
  const run = query.data;
  const busy = starting || (!startError && (inProgress(run) || (query.isPending && !query.isError)));

  let body;
  if (startError) {
    body = <Alert severity="error">{errorMessage(startError, "We couldn't start making the reports. Please try again.")}</Alert>;
  } else if (query.isError) {
    body = <Alert severity="error">{errorMessage(query.error, "We couldn't check on the reports. Please try again.")}</Alert>;
  } else if (busy) {
    body = <Progress run={starting ? null : run} labelId={labelId} />;
  } else if (run?.status === 'failed') {
    body = <Alert severity="error">{run.error || "The reports couldn't be made. Please try again."}</Alert>;
  } else if (run?.status === 'done') {
    body = (
      <Stack spacing={2}>
        <Alert severity="success">{plural(run.total)} ready.</Alert>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
          {run.zipUrl && (
            <Button variant="contained" href={run.zipUrl} download>
              Download all (ZIP)
            </Button>
          )}
          {run.pdfUrl && (
            <Button variant="outlined" href={run.pdfUrl} target="_blank" rel="noopener">
              Print (one PDF)
            </Button>
          )}
        </Box>
        <Typography variant="body2" color="text.secondary">
          The ZIP holds one PDF per student, named after the student. The links work for a limited time: open this window again for new ones.
        </Typography>
      </Stack>
    );
  } else {
    body = <Progress run={null} labelId={labelId} />;
  }
  const failed = Boolean(startError) || query.isError || run?.status === 'failed';

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>Print feedback reports</DialogTitle>
      <DialogContent>{body}</DialogContent>
      <DialogActions>
        {failed && <Button onClick={onRetry}>Try again</Button>}
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
