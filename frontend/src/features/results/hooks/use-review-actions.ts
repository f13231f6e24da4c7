import { useToast } from '../../../components/toast';
import { assignmentTypeInfo } from '../../../lib/assignment-type';
import { BENCHMARK_FAILED_MESSAGE, BENCHMARK_SET_MESSAGE, useSetBenchmark } from '../api/set-benchmark';
import type { FunctionResult, ResultStatus } from '../api/types';
import { useResultEdit } from './use-result-edit';

/** The status a result returns to when a teacher un-reviews it: the AI's done status for its type. */
export function doneStatus(type: string): ResultStatus {
  return assignmentTypeInfo(type)?.verbs.done ?? 'graded';
}

/**
 * What the review screen's header does with a result, with its toasts: set it as a benchmark (or
 * not) and mark it reviewed (or not).
 */
export function useReviewActions(submissionId: string, functionId: string, type: string, onChanged?: () => void) {
  const { showToast } = useToast();
  const benchmark = useSetBenchmark(onChanged);
  const edit = useResultEdit(submissionId, functionId, onChanged);

  const setBenchmark = async (result: FunctionResult, isBenchmark: boolean) => {
    try {
      await benchmark.mutateAsync({ functionResultId: result._id, submissionId, isBenchmark });
      showToast({ type: 'success', message: isBenchmark ? BENCHMARK_SET_MESSAGE : 'Submission removed from benchmarks.' });
    } catch {
      showToast({ type: 'error', message: isBenchmark ? BENCHMARK_FAILED_MESSAGE : 'Failed to remove from benchmarks.' });
    }
  };

  const setReviewed = async (result: FunctionResult, reviewed: boolean) => {
    const before = result.status;
    const status = reviewed ? 'reviewed' : doneStatus(type);
    const saved = await edit.save({
      apply: (r) => ({ ...r, status }),
      revert: (r) => ({ ...r, status: before }),
      changes: () => ({}),
      status,
      failure: "We couldn't change the review status. Please try again.",
    });
    if (saved) showToast({ type: 'success', message: reviewed ? 'Marked as reviewed.' : 'Marked as not reviewed.' });
  };

  return { setBenchmark, setReviewed, reviewing: edit.saving };
}
