import Button from '@mui/material/Button';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import type { AssignmentQueryKey } from '../api/keys';
import { useRunFunctionOnMany } from '../api/run-function-on-many';
import type { Submission, SubmissionsAssignment } from '../api/types';
import type { ResultsBySubmission } from '../lib/sort';

/** Props for {@link RegradeChangedButton}. */
export interface RegradeChangedButtonProps {
  assignment: SubmissionsAssignment;
  submissions: Submission[];
  results: ResultsBySubmission;
  assignmentQueryKey: AssignmentQueryKey;
}

/**
 * "Grade changed questions again": shown while some results were graded against an earlier
 * version of the assignment; grades only those again (`onlyOutdated`), keeping the picks of the
 * questions that did not change. Results the teacher reviewed are skipped.
 */
export function RegradeChangedButton({ assignment, submissions, results, assignmentQueryKey }: RegradeChangedButtonProps) {
  const { showToast } = useToast();
  const run = useRunFunctionOnMany(assignmentQueryKey);
  const outdated = submissions.filter((s) => results.get(s._id)?.outdated);
  if (outdated.length === 0) return null;
  const reviewed = outdated.filter((s) => results.get(s._id)?.status === 'reviewed').length;

  async function start() {
    try {
      const started = await run.mutateAsync({
        assignmentId: assignment._id,
        submissionIds: outdated.map((s) => s._id),
        onlyOutdated: true,
      });
      const n = started.length;
      const skipped = reviewed > 0 ? ` ${reviewed} you reviewed ${reviewed === 1 ? 'was' : 'were'} skipped.` : '';
      showToast({
        type: n > 0 ? 'success' : 'warning',
        message: n > 0 ? `Grading the changed questions of ${n} ${n === 1 ? 'submission' : 'submissions'} again.${skipped}` : `Nothing to grade again.${skipped}`,
      });
    } catch (error) {
      showToast({ type: 'error', message: errorMessage(error, "We couldn't start grading. Please try again.") });
    }
  }

  return (
    <Button variant="outlined" size="small" onClick={() => void start()} loading={run.isPending}>
      Grade changed questions again
    </Button>
  );
}
