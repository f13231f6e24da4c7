import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMemo, type ReactNode } from 'react';
import { useParams } from 'react-router';
import { LoadError } from '../../../components/LoadError';
import { ApiError } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useAssignmentViewOnly } from '../api/get-assignment-view-only';
import { useFunctionViewOnly } from '../api/get-function-view-only';
import { isBeingGraded, useResultViewOnly } from '../api/get-result-view-only';
import { useSubmissionViewOnly } from '../api/get-submission-view-only';
import { isBeingRead } from '../api/types';
import { useInstantFeedback } from '../hooks/use-instant-feedback';
import { loadViewToken } from '../lib/view-token';
import { BeingGraded, BeingRead, FeedbackLater, GradingFailed, ReadFailed, ReadWork, ResultCard, Waiting } from './ResultStates';
import { StudentMessage } from './StudentMessage';

/**
 * Said when this tab holds no token for the result: a result opens, before its release, only in
 * the tab (sessionStorage) the work was submitted from — a second tab or window has none.
 */
export const RESULT_OTHER_TAB_MESSAGE = 'This result opens only in the tab it was submitted from.';

/** Said when the server refuses the token this tab holds (another submission's, or one gone). */
export const RESULT_UNAVAILABLE_MESSAGE = 'This result is not available.';

/** Result statuses with finished feedback to show. */
const FINISHED = ['graded', 'annotated', 'reviewed'];

/** What the app's result view is given: the assignment type, the result and definition as the server sent them, and the work's text. */
export interface StudentResultView {
  type: string;
  result: Record<string, unknown>;
  fn: Record<string, unknown>;
  text: string;
}

/** Props of {@link ViewResultPage}. */
export interface ViewResultPageProps {
  /**
   * Draws a finished result read-only. The app composes it from the results feature; without it
   * the page shows the work's text.
   */
  renderResult?: (view: StudentResultView) => ReactNode;
  /**
   * The ids and token a released link gives (/results/:token, {@link ReleasedResultPage}), in
   * place of the route's ids and the token this tab was given at submission.
   */
  released?: { assignmentId: string; submissionId: string; viewToken: string };
}

/** Said when a finished result is not released to the student yet (and instant feedback is off). */
export const NOT_RELEASED_MESSAGE = 'Your teacher has not released your feedback yet.';

/** True when the server sent a finished result's status only: the teacher has not released it. */
function notReleased(raw: Record<string, unknown>): boolean {
  return raw.released === false && !('feedback' in raw);
}

/** True when the server refuses the call (no or wrong token, nothing there), rather than failing. */
function isRefused(error: unknown): boolean {
  return error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429;
}

/**
 * `/student/view-result/:assignmentId/:submissionId`: a student's own submission and its
 * feedback, read with the view token this tab was given at submission. It waits (polling every
 * 2 s) while the work is read and (every 3 s) while it is graded, starts instant feedback when the
 * assignment gives it, then shows the result read-only.
 */
export function ViewResultPage({ renderResult, released }: ViewResultPageProps = {}) {
  const params = useParams();
  const assignmentId = released?.assignmentId ?? params.assignmentId ?? '';
  const submissionId = released?.submissionId ?? params.submissionId ?? '';
  const stored = useMemo(() => loadViewToken(submissionId), [submissionId]);
  const viewToken = released?.viewToken ?? stored;
  const submission = useSubmissionViewOnly(submissionId, viewToken);
  const assignment = useAssignmentViewOnly(assignmentId, submissionId, viewToken, submission.isSuccess);
  const read = submission.data?.status === 'ready';
  const result = useResultViewOnly(assignmentId, submissionId, viewToken, read);
  const finished = result.data !== undefined && FINISHED.includes(result.data.status);
  const withheld = finished && notReleased(result.data!.raw);
  const type = assignment.data?.type;
  const fn = useFunctionViewOnly(assignmentId, submissionId, type, viewToken, finished && !withheld && !!renderResult);
  const instant = useInstantFeedback({ assignmentId, submissionId, viewToken, assignment: assignment.data, result: result.data });
  const assignmentName = assignment.data?.name;
  // Without instant feedback the student sees feedback only once the teacher releases it.
  const instantFeedback = assignment.data?.provideInstantFeedback === true;
  useDocumentTitle(assignmentName ? `Your submission: ${assignmentName}` : 'Your submission');

  if (submission.isError && isRefused(submission.error)) {
    return viewToken ? (
      <StudentMessage
        title={RESULT_UNAVAILABLE_MESSAGE}
        description="Your teacher can still see your work. Ask your teacher if you need your feedback."
      />
    ) : (
      <StudentMessage
        title={RESULT_OTHER_TAB_MESSAGE}
        description="Go back to that tab to see your feedback, or wait for your teacher to release it: they can send you a link that opens it on any device. Your teacher can see your work."
      />
    );
  }

  const data = submission.data;
  const loadError = (message: string, retry: () => void, retrying: boolean) => (
    <LoadError message={message} onRetry={retry} retrying={retrying} />
  );
  let body: ReactNode;
  if (submission.isError) {
    body = loadError("Couldn't load your result. Check your connection and try again.", () => void submission.refetch(), submission.isFetching);
  } else if (!data || isBeingRead(data)) {
    body = <BeingRead />;
  } else if (data.status === 'failed') {
    body = <ReadFailed error={data.error} />;
  } else if (result.isError) {
    body = isRefused(result.error)
      ? <ReadWork submission={data} note={<FeedbackLater instant={instantFeedback} />} />
      : loadError("Couldn't load your feedback. Check your connection and try again.", () => void result.refetch(), result.isFetching);
  } else if (!result.data) {
    body = <Waiting title="Loading your feedback…" description="One moment." label="Loading your feedback" />;
  } else if (isBeingGraded(result.data) || instant.isPending) {
    body = <BeingGraded />;
  } else if (result.data.status === 'failed') {
    body = <ReadWork submission={data} note={<GradingFailed />} />;
  } else if (withheld) {
    body = <ReadWork submission={data} note={<FeedbackLater message={NOT_RELEASED_MESSAGE} />} />;
  } else if (!finished || !renderResult || !type) {
    body = <ReadWork submission={data} note={finished ? undefined : <FeedbackLater message={instant.data?.message} instant={instantFeedback} />} />;
  } else if (fn.isError) {
    body = loadError("Couldn't load your feedback. Check your connection and try again.", () => void fn.refetch(), fn.isFetching);
  } else if (!fn.data) {
    body = <Waiting title="Loading your feedback…" description="One moment." label="Loading your feedback" />;
  } else {
    body = (
      <ResultCard title="Your feedback">
        {renderResult({ type, result: result.data.raw, fn: fn.data, text: data.text ?? '' })}
      </ResultCard>
    );
  }

  return (
    <Stack spacing={3} sx={{ maxWidth: 960, mx: 'auto' }}>
      <div>
        <Typography variant="body2" color="text.secondary" sx={{ fontWeight: 500 }}>
          {data?.studentName ? `Submitted by ${data.studentName}` : 'Your submission'}
        </Typography>
        <Typography variant="h1" sx={{ fontSize: { xs: '1.625rem', sm: '2rem' }, overflowWrap: 'anywhere' }}>
          {assignmentName ?? 'Your submission'}
        </Typography>
      </div>
      {body}
    </Stack>
  );
}
