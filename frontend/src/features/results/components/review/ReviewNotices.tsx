import FlagRounded from '@mui/icons-material/FlagRounded';
import ScienceOutlined from '@mui/icons-material/ScienceOutlined';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useAppConfig } from '../../../../lib/app-config';
import { assignmentTypeInfo } from '../../../../lib/assignment-type';
import type { FunctionResult } from '../../api/types';
import { isFinished, isInProgress } from '../../lib/normalize';

/** The model name the demo model records on the results it writes. */
export const DEMO_MODEL = 'markwell-demo';

/** Props for {@link ReviewNotices}. */
export interface ReviewNoticesProps {
  result: FunctionResult;
  /** The assignment's type, for the wording ("Annotating…"). */
  type: string;
  /** Starts the AI on this submission (shown when it failed or never ran). */
  onRun?: () => void;
  running?: boolean;
}

function InjectionBanner({ passages }: { passages: string[] }) {
  return (
    <Alert severity="warning" icon={<FlagRounded />}>
      <AlertTitle>This submission may try to instruct the AI grader</AlertTitle>
      The AI was told to treat it as a student&apos;s work, never as instructions, and the score stays within the
      assignment&apos;s points. Check this result yourself.
      {passages.map((passage, i) => (
        // The student's words, shown as text: never markup, never run.
        <Box
          key={i}
          component="blockquote"
          sx={{ m: 0, mt: 1, pl: 1.5, borderLeft: 3, borderColor: 'warning.main', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontStyle: 'italic' }}
        >
          {passage}
        </Box>
      ))}
    </Alert>
  );
}

/** Where the AI stands when its result is not there to review yet: working, failed, or never run. */
function Progress({ result, type, onRun, running }: ReviewNoticesProps) {
  const verbs = assignmentTypeInfo(type)?.verbs ?? { run: 'Grade', running: 'Grading', done: 'graded' };
  const verb = verbs.running;
  const action = verbs.run;
  if (isInProgress(result.status)) {
    return (
      <Paper variant="outlined" role="status" sx={{ p: 3, display: 'flex', alignItems: 'center', gap: 2 }}>
        <CircularProgress size={28} aria-hidden="true" />
        <Box>
          <Typography sx={{ fontWeight: 600 }}>{verb}…</Typography>
          <Typography variant="body2" color="text.secondary">
            This should take 1-2 minutes. The result shows here when it is ready.
          </Typography>
        </Box>
      </Paper>
    );
  }
  const run = onRun && (
    <Button color="inherit" size="small" onClick={onRun} loading={running} sx={{ whiteSpace: 'nowrap' }}>
      {result.status === 'failed' ? `${action} again` : `${action} now`}
    </Button>
  );
  if (result.status === 'failed') {
    return (
      <Alert severity="error" action={run}>
        <AlertTitle>{verb} failed</AlertTitle>
        {result.error || 'The AI could not finish this submission.'}
      </Alert>
    );
  }
  if (result.status === '' || result.status === 'ready-to-grade') {
    return (
      <Alert severity="info" action={run}>
        {`This submission has not been ${verbs.done} yet.`}
      </Alert>
    );
  }
  return null;
}

/**
 * What a teacher must know before reading a result: that it comes from the demo model, that the
 * submission tried to instruct the grader (with the passage), that it was graded against an
 * earlier version of the assignment (and what changed), why the AI failed, or that it is still
 * working.
 */
export function ReviewNotices(props: ReviewNoticesProps) {
  const { result } = props;
  const passages = (result.flags ?? []).filter((f) => f.kind === 'injection').map((f) => f.passage);
  // While the whole app runs on the demo model its banner already says so on every page; this
  // notice is for a demo-model result kept after a real provider was configured.
  const { data: config } = useAppConfig();
  const demo = isFinished(result.status) && result.usage?.model === DEMO_MODEL && config?.demoModel === false;
  return (
    <Stack spacing={1.5}>
      {demo && (
        <Alert severity="info" icon={<ScienceOutlined />}>
          This result comes from Markwell&apos;s demo model, not a real AI: it shows how grading works, not a real judgement.
        </Alert>
      )}
      {passages.length > 0 && <InjectionBanner passages={passages} />}
      {isFinished(result.status) && result.outdated && (
        <Alert severity="warning">
          <AlertTitle>Graded against an earlier version</AlertTitle>
          {(result.outdatedParts ?? []).length > 0
            ? `Changed since it was graded: ${(result.outdatedParts ?? []).join(', ')}. `
            : 'The assignment changed since it was graded. '}
          To grade it against the assignment as it is now, use “Grade changed questions again” on the class page.
        </Alert>
      )}
      <Progress {...props} />
    </Stack>
  );
}
