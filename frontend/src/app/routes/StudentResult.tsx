import Typography from '@mui/material/Typography';
import { normalizeResultFunction } from '../../features/results/lib/definition';
import { normalizeFunctionResult } from '../../features/results/lib/normalize';
import type { StudentResultView } from '../../features/student';
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

