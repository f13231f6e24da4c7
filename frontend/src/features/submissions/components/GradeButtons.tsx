import AutoAwesomeRounded from '@mui/icons-material/AutoAwesomeRounded';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import { assignmentTypeInfo } from '../../../lib/assignment-type';
import type { AssignmentQueryKey } from '../api/keys';
import { GRADING_STARTED_MESSAGE, useRunFunctionOnMany } from '../api/run-function-on-many';
import type { Submission, SubmissionsAssignment } from '../api/types';
import type { ResultsBySubmission } from '../lib/sort';

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

function plural(n: number): string {
  return `${n} ${n === 1 ? 'submission' : 'submissions'}`;
}

/**
 * "Grade all" and "Grade selected" ("Annotate …" for feedback assignments): one request starts the
 * AI on every chosen submission. Grading a result the teacher already reviewed replaces their
 * edits, so that asks first.
 */
export function GradeButtons({ assignment, submissions, chosen, results, assignmentQueryKey, onStarted }: GradeButtonsProps) {
  const { showToast } = useToast();
  const run = useRunFunctionOnMany(assignmentQueryKey);
  const [confirming, setConfirming] = useState<Submission[] | null>(null);
  const verb = assignmentTypeInfo(assignment.type)?.verbs.run ?? 'Grade';

  async function start(targets: Submission[]) {
    try {
      await run.mutateAsync({ assignmentId: assignment._id, submissionIds: targets.map((s) => s._id) });
      setConfirming(null);
      showToast({ type: 'success', message: GRADING_STARTED_MESSAGE });
      onStarted?.();
    } catch (error) {
      setConfirming(null);
      showToast({ type: 'error', message: errorMessage(error, "We couldn't start grading. Please try again.") });
    }
  }

  function request(targets: Submission[]) {
    const reviewed = targets.filter((s) => results.get(s._id)?.status === 'reviewed');
    if (reviewed.length > 0) setConfirming(targets);
    else void start(targets);
  }

  const reviewedCount = confirming?.filter((s) => results.get(s._id)?.status === 'reviewed').length ?? 0;
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
        loading={run.isPending}
      >
        {verb} all
      </Button>
      <ConfirmDialog
        open={confirming !== null}
        title={`${verb} ${plural(confirming?.length ?? 0)} again?`}
        description={`You reviewed ${reviewedCount === 1 ? 'one of them' : `${reviewedCount} of them`}. ${verb === 'Grade' ? 'Grading' : 'Annotating'} again replaces your changes with the AI's new result.`}
        confirmLabel={`${verb} again`}
        pending={run.isPending}
        onConfirm={() => confirming && void start(confirming)}
        onClose={() => setConfirming(null)}
      />
    </>
  );
}
