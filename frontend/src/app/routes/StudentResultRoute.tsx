import Typography from '@mui/material/Typography';
import type { RouteObject } from 'react-router';
import {
  FeedbackReview,
  GradeReview,
  normalizeFunctionResult,
  normalizeResultFunction,
  PromptReview,
  RubricReview,
} from '../../features/results/components';
import { createStudentRoutes, type StudentResultView } from '../../features/student';

/** A student's finished result, read-only, drawn by the results feature's component for its type. */
export function StudentResult({ view }: { view: StudentResultView }) {
  const props = {
    result: normalizeFunctionResult(view.result),
    fn: normalizeResultFunction(view.fn),
    text: view.text,
    readOnly: true,
  };
  switch (view.type) {
    case 'feedback':
      return <FeedbackReview {...props} />;
    case 'rubric-feedback':
      return <RubricReview {...props} />;
    case 'prompt':
      return <PromptReview {...props} />;
    case 'grade':
      return <GradeReview {...props} />;
    default:
      return <Typography color="text.secondary">Your teacher will share this feedback with you.</Typography>;
  }
}

/**
 * The student pages, with a result page that shows a finished result with the results feature's
 * review components, read-only. The app's route tree uses these in place of `studentRoutes`.
 */
export const studentRoutesWithResults: RouteObject[] = createStudentRoutes({
  renderResult: (view) => <StudentResult view={view} />,
});
