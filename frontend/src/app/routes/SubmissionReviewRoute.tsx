import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { Link as RouterLink, useParams, useSearchParams } from 'react-router';
import { LoadError } from '../../components/LoadError';
import { PageSpinner } from '../../components/PageSpinner';
import { useToast } from '../../components/toast';
import { useAssignment, type AssignmentWithResults } from '../../features/assignments/api/get-assignment';
import { useAssignmentFunction } from '../../features/assignments/api/get-function';
import { assignmentKeys } from '../../features/assignments/api/keys';
// Features' parts come from their files, not their index files, so this page's chunk holds only
// what it draws (docs/performance.md, "First load").
import { OriginalBesideText } from '../../features/originals/components/OriginalBesideText';
import { DownloadReportButton } from '../../features/reports/components/DownloadReportButton';
import type { AssignmentFunction } from '../../features/assignments/api/types';
import { useFunctionResult } from '../../features/results/api/get-function-result';
import { functionResultKeys } from '../../features/results/api/keys';
import type { FunctionResult } from '../../features/results/api/types';
import { SubmissionTextPanel } from '../../features/results/components/grade/SubmissionTextPanel';
import { ReviewHeader } from '../../features/results/components/review/ReviewHeader';
import { ReviewNotices } from '../../features/results/components/review/ReviewNotices';
import { ShortcutsDialog } from '../../features/results/components/review/ShortcutsDialog';
import { reviewPosition } from '../../features/results/hooks/review-order';
import { useReviewActions } from '../../features/results/hooks/use-review-actions';
import { useReviewKeys } from '../../features/results/hooks/use-review-keys';
import { formatPoints } from '../../features/results/lib/answers';
import { isFinished } from '../../features/results/lib/normalize';
import { useSubmission } from '../../features/submissions/api/get-submission';
import { normalizeSubmissions } from '../../features/submissions/api/normalize';
import { GRADING_STARTED_MESSAGE, useRunFunctionOnMany } from '../../features/submissions/api/run-function-on-many';
import type { SubmissionWithText } from '../../features/submissions/api/types';
import { ResultStatusChip } from '../../features/submissions/components/ResultStatusChip';
import { readResultSummaries } from '../../features/submissions/lib/function-results';
import { reviewOrder, submissionReviewPath } from '../../features/submissions/lib/review-path';
import { ApiError, errorMessage } from '../../lib/api-client';
import { useDocumentTitle } from '../../lib/use-document-title';
import { processes } from '../processes';

/** The review screen's route, under the app layout. */
export { SUBMISSION_REVIEW_PATH } from './paths';

function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

function NotFound({ assignmentId }: { assignmentId: string }) {
  useDocumentTitle('Submission not found');
  return (
    <Box sx={{ maxWidth: 520, mx: 'auto', textAlign: 'center', py: { xs: 4, sm: 8 } }}>
      <Typography variant="h1">Submission not found</Typography>
      <Typography color="text.secondary" sx={{ mt: 1.5, mb: 3 }}>
        It may have been deleted, or the link may belong to another team.
      </Typography>
      <Button component={RouterLink} to={`/assignment/${encodeURIComponent(assignmentId)}`} variant="contained">
        Back to the assignment
      </Button>
    </Box>
  );
}

/** The submissions in review order with their results' statuses (this one's as freshly read). */
function useReviewItems(data: AssignmentWithResults, current: FunctionResult) {
  return useMemo(() => {
    const results = readResultSummaries(data.functionResults);
    return reviewOrder(normalizeSubmissions(data.submissions)).map((s) => ({
      submissionId: s._id,
      status: s._id === current.submission ? current.status : (results.get(s._id)?.status ?? ''),
    }));
  }, [data, current]);
}

interface ReviewPageProps {
  data: AssignmentWithResults;
  fn: AssignmentFunction | undefined;
  submission: SubmissionWithText;
  result: FunctionResult;
}

/** The loaded review screen: header, notices, then the result by the assignment's type. */
function ReviewPage({ data, fn, submission, result }: ReviewPageProps) {
  const { assignment } = data;
  const queryClient = useQueryClient();
  const { showToast } = useToast();
  const [showKeys, setShowKeys] = useState(false);
  const [search] = useSearchParams();
  useDocumentTitle(`${submission.name} · ${assignment.name}`);

  const assignmentKey = assignmentKeys.detail(assignment._id);
  const onChanged = useCallback(() => void queryClient.invalidateQueries({ queryKey: assignmentKey }), [queryClient, assignmentKey]);
  const actions = useReviewActions(submission._id, fn?._id ?? '', assignment.type, onChanged);
  const run = useRunFunctionOnMany(assignmentKey, [functionResultKeys.detail(submission._id)]);

  const items = useReviewItems(data, result);
  const position = reviewPosition(items, submission._id);
  const pathOf = (id: string | null) => (id ? submissionReviewPath(assignment._id, id) : null);
  const paths = { previousPath: pathOf(position.previous), nextPath: pathOf(position.next), nextUnreviewedPath: pathOf(position.nextUnreviewed) };
  useReviewKeys({ ...paths, onShowShortcuts: () => setShowKeys(true) }, !showKeys);

  const finished = isFinished(result.status);
  const hasPoints = finished && result.totalPoints !== null && result.maxPoints !== null;
  const typeProcess = processes.get(assignment.type);
  const Review = typeProcess?.Review;
  // Benchmarks are examples of the teacher's scoring of criteria, for later runs and the agreement
  // check; a type whose results score no criteria (feedback, prompt) has no use for the switch.
  const takesBenchmarks = Boolean(typeProcess?.info.criteria);

  const startRun = async () => {
    try {
      await run.mutateAsync({ assignmentId: assignment._id, submissionIds: [submission._id] });
      showToast({ type: 'success', message: GRADING_STARTED_MESSAGE });
    } catch (error) {
      showToast({ type: 'error', message: errorMessage(error, "We couldn't start grading. Please try again.") });
    }
  };

  return (
    <>
      <ReviewHeader
        assignmentName={assignment.name}
        assignmentPath={`/assignment/${encodeURIComponent(assignment._id)}`}
        submissionName={submission.name}
        statusChip={<ResultStatusChip status={result.status} error={result.error} type={assignment.type} />}
        total={hasPoints ? `${formatPoints(result.totalPoints ?? 0)} / ${formatPoints(result.maxPoints ?? 0)}` : null}
        index={position.index}
        count={position.count}
        previousPath={paths.previousPath}
        nextPath={paths.nextPath}
        benchmark={finished && takesBenchmarks ? { checked: result.isBenchmark, onChange: (on) => void actions.setBenchmark(result, on) } : null}
        review={
          finished && fn
            ? { reviewed: result.status === 'reviewed', pending: actions.reviewing, onChange: (on) => void actions.setReviewed(result, on) }
            : null
        }
        onShowShortcuts={() => setShowKeys(true)}
        actions={<DownloadReportButton assignmentId={assignment._id} submissionId={submission._id} />}
      />
      <Stack spacing={2}>
        <ReviewNotices result={result} type={assignment.type} onRun={() => void startRun()} running={run.isPending} />
        <OriginalBesideText submission={submission} initialPage={Number(search.get('page')) || undefined}>
          {finished && fn && Review ? (
            <Review result={result} fn={fn} text={submission.text} onChanged={onChanged} />
          ) : finished ? (
            <PageSpinner label="Loading the assignment's definition" />
          ) : (
            <SubmissionTextPanel text={submission.text} />
          )}
        </OriginalBesideText>
      </Stack>
      <ShortcutsDialog open={showKeys} onClose={() => setShowKeys(false)} grade={Boolean(processes.get(assignment.type)?.info.criterionKeys)} />
    </>
  );
}

/**
 * One submission's result, to read and correct (`/assignment/{id}/submission/{submissionId}`): the
 * assignment (for the order of its submissions), its definition, the submission's text and the
 * result, polled every 2 s while the AI works on it.
 */
export function SubmissionReviewRoute() {
  const { assignmentId = '', submissionId = '' } = useParams();
  const assignment = useAssignment(assignmentId);
  const definition = useAssignmentFunction(assignmentId, assignment.data?.assignment.type);
  const submission = useSubmission(submissionId);
  const result = useFunctionResult(assignmentId, submissionId);

  const queries = [assignment, submission, result];
  if (queries.some((q) => isNotFound(q.error))) return <NotFound assignmentId={assignmentId} />;
  const failed = queries.find((q) => q.error && !q.data);
  if (failed) {
    return (
      <LoadError
        message={errorMessage(failed.error, "We couldn't load this submission. Please try again.")}
        onRetry={() => queries.forEach((q) => q.error && void q.refetch())}
        retrying={queries.some((q) => q.isFetching)}
      />
    );
  }
  if (!assignment.data || !submission.data || !result.data) return <PageSpinner label="Loading the submission" />;
  return (
    // A fresh page per submission: fields and the current answer do not carry over.
    <ReviewPage key={submissionId} data={assignment.data} fn={definition.data} submission={submission.data} result={result.data} />
  );
}
