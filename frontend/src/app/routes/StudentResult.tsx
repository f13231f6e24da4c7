import Typography from '@mui/material/Typography';
import type { RouteObject } from 'react-router';
import { normalizeFunctionResult, normalizeResultFunction } from '../../features/results/components';
import { createStudentRoutes, type StudentResultView } from '../../features/student';
import { processes } from '../processes';

/** A student's finished result, read-only, drawn by its type module's `StudentView` (app/processes). */
export function StudentResult({ view }: { view: StudentResultView }) {
  const props = {
    result: normalizeFunctionResult(view.result),
    fn: normalizeResultFunction(view.fn),
    text: view.text,
    readOnly: true,
  };
  const StudentView = processes.get(view.type)?.StudentView;
  if (!StudentView) return <Typography color="text.secondary">Your teacher will share this feedback with you.</Typography>;
  return <StudentView {...props} />;
}

/**
 * The student pages, with a result page that shows a finished result with the results feature's
 * review components, read-only. The app's route tree uses these in place of `studentRoutes`.
 */
export const studentRoutesWithResults: RouteObject[] = createStudentRoutes({
  renderResult: (view) => <StudentResult view={view} />,
});
