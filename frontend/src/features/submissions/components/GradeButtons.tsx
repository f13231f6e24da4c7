import AutoAwesomeRounded from '@mui/icons-material/AutoAwesomeRounded';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { lazyComponent } from '../../../components/lazy-component';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import { assignmentTypeInfo } from '../../../lib/assignment-type';
import type { AssignmentQueryKey } from '../api/keys';
import { GRADING_STARTED_MESSAGE, useRunFunctionOnMany } from '../api/run-function-on-many';
import type { Submission, SubmissionsAssignment } from '../api/types';
import type { ResultsBySubmission } from '../lib/sort';

// Loads when first drawn: the page's first load does not carry it (docs/performance.md, "First load").
const ReviewedRunDialog = lazyComponent(() => import('./ReviewedRunDialog').then((m) => m.ReviewedRunDialog));

/** Props for {@link GradeButtons}. */
export interface GradeButtonsProps {
  assignment: SubmissionsAssignment;
  submissions: Submission[];
  /** The selected submissions; "Grade selected" shows while there are any. */
  chosen: Submission[];
  results: ResultsBySubmission;
  assignmentQueryKey: AssignmentQueryKey;
  /** Called once grading has started (the selection is cleared). */
  onStarted?: () => void;
}

/** What a grade request does with the results the teacher reviewed. */
type Reviewed = 'skip' | 'overwrite';

/**
 * "Grade all" and "Grade selected" ("Annotate …" for feedback assignments): one request starts the
 * AI on every chosen submission. A result the teacher reviewed (any tick, adjustment or comment of
 * theirs) is theirs: when the choice holds some, a dialog asks whether to skip them (the default;
 * the server skips them too unless told otherwise) or grade them again too.
 */
export function GradeButtons({ assignment, submissions, chosen, results, assignmentQueryKey, onStarted }: GradeButtonsProps) {
  const { showToast } = useToast();
  const run = useRunFunctionOnMany(assignmentQueryKey);
  const [confirming, setConfirming] = useState<Submission[] | null>(null);
  const [pending, setPending] = useState<Reviewed | null>(null);
  const verb = assignmentTypeInfo(assignment.type)?.verbs.run ?? 'Grade';
  const isReviewed = (s: Submission) => results.get(s._id)?.status === 'reviewed';

  async function start(targets: Submission[], reviewed: Reviewed) {
    const submissionIds = (reviewed === 'skip' ? targets.filter((s) => !isReviewed(s)) : targets).map((s) => s._id);
    if (submissionIds.length === 0) {
      setConfirming(null);
      showToast({ type: 'warning', message: `Nothing to ${verb.toLowerCase()}: you reviewed every submission you chose.` });
      onStarted?.();
      return;
    }
    setPending(reviewed);
    try {
      await run.mutateAsync({ assignmentId: assignment._id, submissionIds, ...(reviewed === 'overwrite' ? { overwriteReviewed: true } : {}) });
      showToast({ type: 'success', message: GRADING_STARTED_MESSAGE });
      onStarted?.();
    } catch (error) {
      showToast({ type: 'error', message: errorMessage(error, "We couldn't start grading. Please try again.") });
    } finally {
      setPending(null);
      setConfirming(null);
    }
  }

  function request(targets: Submission[]) {
    if (targets.some(isReviewed)) setConfirming(targets);
    else void start(targets, 'skip');
  }

  return (
    <>
      {chosen.length > 0 && (
        <Button variant="outlined" size="small" onClick={() => request(chosen)} disabled={run.isPending}>
          {verb} selected
        </Button>
      )}
      <Button
        variant="contained"
        size="small"
        startIcon={<AutoAwesomeRounded />}
        onClick={() => request(submissions)}
        disabled={submissions.length === 0}
        loading={run.isPending && confirming === null}
      >
        {verb} all
      </Button>
      <ReviewedRunDialog
        open={confirming !== null}
        total={confirming?.length ?? 0}
        reviewed={confirming?.filter(isReviewed).length ?? 0}
        verb={verb}
        pending={pending}
        onSkip={() => confirming && void start(confirming, 'skip')}
        onOverwrite={() => confirming && void start(confirming, 'overwrite')}
        onClose={() => setConfirming(null)}
      />
    </>
  );
}
