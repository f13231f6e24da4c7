import Button from '@mui/material/Button';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import type { AssignmentQueryKey } from '../api/keys';
import { useRunFunctionOnMany } from '../api/run-function-on-many';
import type { SubmissionsAssignment } from '../api/types';

/** Props for {@link RegradeChangedButton}. */
export interface RegradeChangedButtonProps {
  assignment: SubmissionsAssignment;
  /** Every submission of the class whose result is outdated, on any page (submission-rows' outdatedIds). */
  outdatedIds: string[];
  /** How many of them the teacher reviewed (they are skipped). */
  reviewed: number;
  assignmentQueryKey: AssignmentQueryKey;
}

/**
 * "Grade changed questions again": shown while some results of the class were graded against an
 * earlier version of the assignment; grades only those again (`onlyOutdated`), keeping the picks
 * of the questions that did not change. Results the teacher reviewed are skipped. The ids are the
 * whole class's, from the server, not the page's.
 */
export function RegradeChangedButton({ assignment, outdatedIds, reviewed, assignmentQueryKey }: RegradeChangedButtonProps) {
  const { showToast } = useToast();
  const run = useRunFunctionOnMany(assignmentQueryKey);
  if (outdatedIds.length === 0) return null;

  async function start() {
    try {
      const started = await run.mutateAsync({
        assignmentId: assignment._id,
        submissionIds: outdatedIds,
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
