import AutoAwesomeRounded from '@mui/icons-material/AutoAwesomeRounded';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { lazyComponent } from '../../../components/lazy-component';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import { assignmentTypeInfo } from '../../../lib/assignment-type';
import type { AssignmentQueryKey } from '../api/keys';
import { GRADING_STARTED_MESSAGE, useRunFunctionOnMany } from '../api/run-function-on-many';
import type { SubmissionsAssignment } from '../api/types';

// Loads when first drawn: the page's first load does not carry it (docs/performance.md, "First load").
const ReviewedRunDialog = lazyComponent(() => import('./ReviewedRunDialog').then((m) => m.ReviewedRunDialog));

/** The most submissions one `runFunctionOnMany` request takes (the server's result.MaxPerRun). */
export const RUN_BATCH = 1000;

/** Props for {@link GradeButtons}. */
export interface GradeButtonsProps {
  assignment: SubmissionsAssignment;
  /** Every submission of the class; "Grade all" is off without any. */
  classSize: number;
  /** The selected submissions' ids; "Grade selected" shows while there are any. */
  chosenIds: string[];
  /** Those of them the teacher reviewed. */
  reviewedIds: string[];
  /** Those of them whose file could not be read (the submission failed): never graded. */
  unreadableIds?: string[];
  /** Every submission of the class, those reviewed and those unreadable, asked when "Grade all" is pressed. */
  everyId: () => Promise<{ ids: string[]; reviewed: string[]; unreadable?: string[] }>;
  assignmentQueryKey: AssignmentQueryKey;
  /** Called once grading has started (the selection is cleared). */
  onStarted?: () => void;
}

/** What a grade request does with the results the teacher reviewed. */
type Reviewed = 'skip' | 'overwrite';

/** A choice of submissions to grade. */
interface Targets {
  /** Those that can be graded: the unreadable ones are left out. */
  ids: string[];
  reviewed: Set<string>;
  /** How many of the choice were left out because their file could not be read. */
  unreadable: number;
}

/** The choice of `ids` to grade: those whose file could not be read are left out, and counted. */
function targetsOf(ids: string[], reviewed: Iterable<string>, unreadable: Iterable<string> = []): Targets {
  const skip = new Set(unreadable);
  const gradable = ids.filter((id) => !skip.has(id));
  return { ids: gradable, reviewed: new Set(reviewed), unreadable: ids.length - gradable.length };
}

const count = (n: number) => n.toLocaleString('en-US');

/**
 * "Grade all" and "Grade selected" ("Annotate …" for feedback assignments): start the AI on every
 * chosen submission, in requests of at most {@link RUN_BATCH} one after another (a year group is
 * more than one), saying how far it got. A result the teacher reviewed (any tick, adjustment or
 * comment of theirs) is theirs: when the choice holds some, a dialog asks whether to skip them
 * (the default; the server skips them too unless told otherwise) or grade them again too. A
 * submission whose file could not be read has no text to grade: it is never sent, nor counted
 * in the dialog, which says how many were left out. A batch
 * that fails stops the rest; the batches before it stay queued, and pressing again does not queue
 * them twice (the server skips results already in progress).
 */
export function GradeButtons({ assignment, classSize, chosenIds, reviewedIds, unreadableIds = [], everyId, assignmentQueryKey, onStarted }: GradeButtonsProps) {
  const { showToast } = useToast();
  const run = useRunFunctionOnMany(assignmentQueryKey);
  const [confirming, setConfirming] = useState<Targets | null>(null);
  const [pending, setPending] = useState<Reviewed | null>(null);
  const [loadingAll, setLoadingAll] = useState(false);
  const [progress, setProgress] = useState<string | null>(null);
  const verb = assignmentTypeInfo(assignment.type)?.verbs.run ?? 'Grade';

  async function start(targets: Targets, reviewed: Reviewed) {
    const submissionIds = reviewed === 'skip' ? targets.ids.filter((id) => !targets.reviewed.has(id)) : targets.ids;
    if (submissionIds.length === 0) {
      setConfirming(null);
      const why = targets.ids.length === 0
        ? `the ${targets.unreadable === 1 ? "file you chose could not be read" : "files you chose could not be read"}`
        : 'you reviewed every submission you chose';
      showToast({ type: 'warning', message: `Nothing to ${verb.toLowerCase()}: ${why}.` });
      onStarted?.();
      return;
    }
    setPending(reviewed);
    let queued = 0;
    try {
      for (let i = 0; i < submissionIds.length; i += RUN_BATCH) {
        const batch = submissionIds.slice(i, i + RUN_BATCH);
        await run.mutateAsync({ assignmentId: assignment._id, submissionIds: batch, ...(reviewed === 'overwrite' ? { overwriteReviewed: true } : {}) });
        queued += batch.length;
        if (submissionIds.length > RUN_BATCH) setProgress(`Queued ${count(queued)} of ${count(submissionIds.length)}…`);
      }
      showToast({ type: 'success', message: GRADING_STARTED_MESSAGE });
      onStarted?.();
    } catch (error) {
      const message = errorMessage(error, "We couldn't start grading. Please try again.");
      showToast({
        type: 'error',
        message: queued > 0 ? `${message} ${count(queued)} of ${count(submissionIds.length)} were queued; press again to queue the rest.` : message,
      });
    } finally {
      setPending(null);
      setConfirming(null);
      setProgress(null);
    }
  }

  function request(targets: Targets) {
    if (targets.ids.some((id) => targets.reviewed.has(id))) setConfirming(targets);
    else void start(targets, 'skip');
  }

  async function requestAll() {
    setLoadingAll(true);
    try {
      const all = await everyId();
      request(targetsOf(all.ids, all.reviewed, all.unreadable));
    } catch (error) {
      showToast({ type: 'error', message: errorMessage(error, "We couldn't start grading. Please try again.") });
    } finally {
      setLoadingAll(false);
    }
  }

  const busy = run.isPending || pending !== null;
  return (
    <>
      {progress && (
        <Typography variant="body2" color="text.secondary" role="status" sx={{ alignSelf: 'center' }}>
          {progress}
        </Typography>
      )}
      {chosenIds.length > 0 && (
        <Button variant="outlined" size="small" onClick={() => request(targetsOf(chosenIds, reviewedIds, unreadableIds))} disabled={busy}>
          {verb} selected
        </Button>
      )}
      <Button
        variant="contained"
        size="small"
        startIcon={<AutoAwesomeRounded />}
        onClick={() => void requestAll()}
        disabled={classSize === 0}
        loading={loadingAll || (busy && confirming === null)}
      >
        {verb} all
      </Button>
      <ReviewedRunDialog
        open={confirming !== null}
        total={confirming?.ids.length ?? 0}
        reviewed={confirming ? confirming.ids.filter((id) => confirming.reviewed.has(id)).length : 0}
        unreadable={confirming?.unreadable ?? 0}
        verb={verb}
        pending={pending}
        onSkip={() => confirming && void start(confirming, 'skip')}
        onOverwrite={() => confirming && void start(confirming, 'overwrite')}
        onClose={() => setConfirming(null)}
      />
    </>
  );
}
