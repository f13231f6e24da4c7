import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useId, useState } from 'react';
import { LoadError } from '../../../components/LoadError';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { useClassroomStatus } from '../api/get-status';
import { usePassback, useStartPassback } from '../api/passback';
import type { Passback, PassbackStudent } from '../api/types';
import { startConnect } from '../lib/connect';

/** What the dialog says when the connection does not allow grades. */
export const RECONNECT_FOR_GRADES = 'Reconnect Google Classroom to allow sending grades.';

/** Said plainly: the API Markwell uses has no private comments. */
export const NO_COMMENTS_NOTE =
  'Google Classroom’s API cannot add private comments. To give each student the link to their feedback, use Markwell’s release email or links CSV.';

/** Props for {@link SendGradesDialog}. */
export interface SendGradesDialogProps {
  assignmentId: string;
  /** The rows selected in the submissions table; none means everyone imported from Classroom. */
  selectedIds: string[];
  /** The page to come back to after connecting. */
  returnTo: string;
  onClose: () => void;
}

const STATE_LABELS: Record<PassbackStudent['state'], string> = {
  pending: 'Waiting',
  sent: 'Sent',
  returned: 'Sent and returned',
  failed: 'Not sent',
};

function formatGrade(grade: number | null): string {
  return grade === null ? '' : ` · ${grade.toLocaleString(undefined, { maximumFractionDigits: 2 })}`;
}

/** Connect or reconnect, with the reason and a button that leaves for Google's consent screen. */
function ConnectFirst({ message, returnTo, onClose }: { message: string; returnTo: string; onClose: () => void }) {
  const [leaving, setLeaving] = useState(false);
  return (
    <>
      <DialogContent dividers>
        <Alert severity="warning">{message}</Alert>
        <Typography color="text.secondary" sx={{ mt: 2 }}>
          Google will ask you to let Markwell set grades and return work in Classroom. You come back to this page afterwards.
        </Typography>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2, gap: 1, flexWrap: 'wrap' }}>
        <Button onClick={onClose} disabled={leaving}>
          Cancel
        </Button>
        <Button
          variant="contained"
          loading={leaving}
          onClick={() => {
            setLeaving(true);
            startConnect(returnTo);
          }}
        >
          Connect Google Classroom
        </Button>
      </DialogActions>
    </>
  );
}

/** The run: progress while it works, then each student's outcome. */
function RunView({ run, onAgain, onClose }: { run: Passback; onAgain: () => void; onClose: () => void }) {
  const working = run.status !== 'done';
  const failed = run.students.filter((s) => s.state === 'failed').length;
  const sent = run.students.filter((s) => s.state === 'sent' || s.state === 'returned').length;
  const percent = run.total > 0 ? Math.round((run.done / run.total) * 100) : 0;
  return (
    <>
      <DialogContent dividers>
        {working ? (
          <Box sx={{ mb: 2 }}>
            <Typography aria-live="polite" sx={{ mb: 1 }}>
              Sending grades to Google Classroom: {run.done} of {run.total} done
            </Typography>
            <LinearProgress variant="determinate" value={percent} aria-label="Sending grades" />
          </Box>
        ) : (
          <Alert severity={failed > 0 ? 'warning' : 'success'} sx={{ mb: 2 }} role="status">
            {sent} of {run.total} {run.total === 1 ? 'grade' : 'grades'} sent as {run.grade === 'assigned' ? 'assigned' : 'draft'} grades
            {run.returnToStudents ? ' and returned' : ''}.{failed > 0 ? ` ${failed} not sent: see why below.` : ''}
          </Alert>
        )}
        <Box component="ul" aria-label="Students" sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {run.students.map((s) => (
            <Box
              component="li"
              key={s.submissionId}
              sx={{ py: 1, borderTop: 1, borderColor: 'divider', '&:first-of-type': { borderTop: 0 }, overflowWrap: 'anywhere' }}
            >
              <Typography sx={{ fontWeight: 600 }}>{s.studentName || 'Unnamed student'}</Typography>
              <Typography color={s.state === 'failed' ? 'error' : 'text.secondary'} variant="body2">
                {STATE_LABELS[s.state]}
                {formatGrade(s.grade)}
                {s.error ? ` — ${s.error}` : ''}
              </Typography>
            </Box>
          ))}
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2, gap: 1, flexWrap: 'wrap' }}>
        {!working && <Button onClick={onAgain}>Send again</Button>}
        <Button variant="contained" onClick={onClose}>
          Close
        </Button>
      </DialogActions>
    </>
  );
}

/**
 * "Send grades to Google Classroom": draft or assigned grades, optionally returning the work, for
 * the selected rows or everyone imported from Classroom; then the run's progress and each
 * student's outcome in plain words. Full screen on a phone.
 */
export function SendGradesDialog({ assignmentId, selectedIds, returnTo, onClose }: SendGradesDialogProps) {
  const titleId = useId();
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const status = useClassroomStatus();
  const latest = usePassback(assignmentId);
  const start = useStartPassback(assignmentId);
  const [view, setView] = useState<'form' | 'run' | null>(null);
  const [grade, setGrade] = useState<'draft' | 'assigned'>('draft');
  const [returnToStudents, setReturn] = useState(false);
  const [who, setWho] = useState<'selected' | 'all'>(selectedIds.length > 0 ? 'selected' : 'all');

  const run = latest.data ?? null;
  const shown = view ?? (run ? 'run' : 'form');

  let body;
  if (status.isPending || latest.isPending) {
    body = (
      <DialogContent dividers>
        <Box sx={{ display: 'grid', placeItems: 'center', py: 4 }}>
          <CircularProgress aria-label="Checking your Google Classroom connection" />
        </Box>
      </DialogContent>
    );
  } else if (status.isError || latest.isError) {
    const error = status.error ?? latest.error;
    body = (
      <>
        <DialogContent dividers>
          <LoadError
            message={errorMessage(error, "Couldn't check your Google Classroom connection.")}
            onRetry={() => {
              void status.refetch();
              void latest.refetch();
            }}
            retrying={status.isFetching || latest.isFetching}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, py: 2 }}>
          <Button onClick={onClose}>Close</Button>
        </DialogActions>
      </>
    );
  } else if (shown === 'run' && run) {
    body = <RunView run={run} onAgain={() => setView('form')} onClose={onClose} />;
  } else if (!status.data.configured) {
    body = (
      <>
        <DialogContent dividers>
          <Alert severity="info">{status.data.reason || 'Google Classroom is not available on this server.'}</Alert>
        </DialogContent>
        <DialogActions sx={{ px: 3, py: 2 }}>
          <Button onClick={onClose}>Close</Button>
        </DialogActions>
      </>
    );
  } else if (!status.data.connected) {
    body = <ConnectFirst message={status.data.reason || 'Connect Google Classroom to send grades.'} returnTo={returnTo} onClose={onClose} />;
  } else if (!status.data.canSendGrades) {
    body = <ConnectFirst message={RECONNECT_FOR_GRADES} returnTo={returnTo} onClose={onClose} />;
  } else {
    const refusedToConnect = start.error instanceof ApiError && start.error.status === 409 && /connect/i.test(start.error.message);
    body = (
      <>
        <DialogContent dividers>
          <FormControl sx={{ mb: 2 }}>
            <FormLabel id={`${titleId}-grade`}>Grade</FormLabel>
            <RadioGroup aria-labelledby={`${titleId}-grade`} value={grade} onChange={(e) => setGrade(e.target.value as 'draft' | 'assigned')}>
              <FormControlLabel value="draft" control={<Radio />} label="Draft grade (only you see it in Classroom)" />
              <FormControlLabel value="assigned" control={<Radio />} label="Assigned grade (students see it once the work is returned)" />
            </RadioGroup>
          </FormControl>
          <FormControl sx={{ mb: 2, display: 'block' }}>
            <FormControlLabel
              control={<Checkbox checked={returnToStudents} onChange={(e) => setReturn(e.target.checked)} />}
              label="Return to students"
            />
            <FormHelperText sx={{ mx: 0 }}>
              Returns the work in Classroom. A draft grade stays hidden from students even when returned.
            </FormHelperText>
          </FormControl>
          {selectedIds.length > 0 && (
            <FormControl sx={{ mb: 2 }}>
              <FormLabel id={`${titleId}-who`}>Students</FormLabel>
              <RadioGroup aria-labelledby={`${titleId}-who`} value={who} onChange={(e) => setWho(e.target.value as 'selected' | 'all')}>
                <FormControlLabel value="selected" control={<Radio />} label={`The ${selectedIds.length} selected`} />
                <FormControlLabel value="all" control={<Radio />} label="Everyone imported from Classroom" />
              </RadioGroup>
            </FormControl>
          )}
          <Typography color="text.secondary" variant="body2" sx={{ mb: 1 }}>
            Each total is scaled to the Classroom assignment’s points (15 of 20 on a 100-point assignment is 75). Only finished
            results are sent.
          </Typography>
          <Typography color="text.secondary" variant="body2" sx={{ mb: 1 }}>
            {NO_COMMENTS_NOTE}
          </Typography>
          <Typography color="text.secondary" variant="body2">
            Google accepts grades only for Classroom assignments created by Markwell’s own Google project. For an assignment
            made in Classroom itself, each student will say so, and you enter those grades in Classroom.
          </Typography>
          {start.isError && (
            <Alert severity="error" sx={{ mt: 2 }}>
              {errorMessage(start.error, "We couldn't start sending grades. Please try again.")}
              {refusedToConnect && (
                <Box sx={{ mt: 1 }}>
                  <Button color="inherit" size="small" variant="outlined" onClick={() => startConnect(returnTo)}>
                    Connect again
                  </Button>
                </Box>
              )}
            </Alert>
          )}
        </DialogContent>
        <DialogActions sx={{ px: 3, py: 2, gap: 1, flexWrap: 'wrap' }}>
          <Button onClick={onClose} disabled={start.isPending}>
            Cancel
          </Button>
          <Button
            variant="contained"
            loading={start.isPending}
            onClick={() =>
              start.mutate(
                { assignmentId, submissionIds: who === 'selected' ? selectedIds : [], grade, returnToStudents },
                { onSuccess: () => setView('run') },
              )
            }
          >
            Send grades
          </Button>
        </DialogActions>
      </>
    );
  }

  return (
    <Dialog
      open
      onClose={start.isPending ? undefined : onClose}
      aria-labelledby={titleId}
      maxWidth="sm"
      fullWidth
      fullScreen={fullScreen}
      scroll="paper"
    >
      <DialogTitle id={titleId}>Send grades to Google Classroom</DialogTitle>
      {body}
    </Dialog>
  );
}
