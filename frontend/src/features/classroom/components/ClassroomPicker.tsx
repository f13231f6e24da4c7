import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { QueryKey, UseQueryResult } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { LoadError } from '../../../components/LoadError';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import { useCourses } from '../api/get-courses';
import { useCoursework } from '../api/get-coursework';
import { useStudentSubmissions } from '../api/get-student-submissions';
import { useImportFromClassroom } from '../api/import-submissions';
import type { ClassroomAssignment, ImportResult } from '../api/types';
import { needsReconnect } from '../lib/connect';
import { ReconnectNotice } from './ReconnectNotice';
import { ImportSummary, importSummaryText } from './ImportSummary';
import { StudentWorkList } from './StudentWorkList';

/** Props for {@link ClassroomPicker}. */
export interface ClassroomPickerProps {
  assignment: ClassroomAssignment;
  assignmentQueryKey: QueryKey;
  returnTo: string;
  onClose: () => void;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function Loading({ children }: { children: ReactNode }) {
  return (
    <Stack role="status" direction="row" spacing={1.5} sx={{ alignItems: 'center', py: 1 }}>
      <CircularProgress size={20} aria-hidden="true" />
      <Typography color="text.secondary">{children}</Typography>
    </Stack>
  );
}

/**
 * One step of the picker's data: a spinner while it loads, the error with "Try again" when it
 * fails (a refused connection is shown once, above, by the picker), a note when it is empty, and
 * `children` otherwise.
 */
function Loaded<T>({ query, loading, empty, children }: { query: UseQueryResult<T[]>; loading: string; empty: string; children: (data: T[]) => ReactNode }) {
  if (query.isPending) return <Loading>{loading}</Loading>;
  if (query.isError) {
    if (needsReconnect(query.error)) return null;
    return <LoadError message={errorMessage(query.error, 'Google Classroom did not answer. Please try again.')} onRetry={() => void query.refetch()} retrying={query.isFetching} />;
  }
  if (query.data.length === 0) return <Alert severity="info">{empty}</Alert>;
  return children(query.data);
}

/** A refused import: the server's message, focused so it is scrolled into view and read out. */
function ImportError({ error }: { error: unknown }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), [error]);
  return (
    <Alert ref={ref} tabIndex={-1} severity="error">
      {errorMessage(error, 'The work could not be imported. Please try again.')}
    </Alert>
  );
}

function Choice({ label, placeholder, value, onChange, options }: { label: string; placeholder: string; value: string; onChange: (value: string) => void; options: { value: string; label: string }[] }) {
  return (
    <TextField
      select
      fullWidth
      size="small"
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
    >
      <option value="" disabled>
        {placeholder}
      </option>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </TextField>
  );
}

/**
 * The connected teacher's picker: a class, then one of its assignments, then the turned-in work
 * to import (checkboxes, "Select all"). Import toasts how many submissions were created and how
 * many files were skipped; the reasons stay listed in the dialog.
 */
export function ClassroomPicker({ assignment, assignmentQueryKey, returnTo, onClose }: ClassroomPickerProps) {
  const { showToast } = useToast();
  const [classId, setClassId] = useState('');
  const [courseworkId, setCourseworkId] = useState('');
  const [selected, setSelected] = useState<Set<string>>(() => new Set());
  const [result, setResult] = useState<ImportResult | null>(null);
  const [problem, setProblem] = useState<unknown>(null);
  const courses = useCourses();
  const coursework = useCoursework(classId);
  const work = useStudentSubmissions(classId, courseworkId);
  const importer = useImportFromClassroom(assignmentQueryKey);
  const busy = importer.isPending;

  const refused = [problem, work.error, coursework.error, courses.error].find(needsReconnect);
  const chosen = (work.data ?? []).filter((w) => selected.has(w.id)).map((w) => w.id);

  const pickClass = (id: string) => {
    setClassId(id);
    setCourseworkId('');
    setSelected(new Set());
  };
  const pickCoursework = (id: string) => {
    setCourseworkId(id);
    setSelected(new Set());
  };

  async function submit() {
    setProblem(null);
    setResult(null);
    try {
      const done = await importer.mutateAsync({
        assignmentId: assignment._id,
        type: assignment.type,
        classId,
        courseworkId,
        selectedStudentSubmissions: chosen,
      });
      const skipped = done.skipped.length > 0;
      showToast({ type: skipped ? 'warning' : 'success', message: importSummaryText(done) });
      if (!skipped) {
        onClose();
        return;
      }
      // The dialog stays open with the reasons (a toast under a dialog is hidden from screen readers).
      setResult(done);
      setSelected(new Set());
    } catch (error) {
      setProblem(error);
    }
  }

  return (
    <>
      <DialogContent dividers>
        <Stack spacing={2.5}>
          {refused !== undefined && <ReconnectNotice error={refused} returnTo={returnTo} />}
          {result && <ImportSummary result={result} work={work.data ?? []} />}
          {problem !== null && !needsReconnect(problem) && <ImportError error={problem} />}
          <Loaded query={courses} loading="Loading your classes…" empty="You have no active classes in Google Classroom.">
            {(list) => (
              <Choice
                label="Class"
                placeholder="Choose a class"
                value={classId}
                onChange={pickClass}
                options={list.map((c) => ({ value: c.id, label: c.section ? `${c.name} (${c.section})` : c.name }))}
              />
            )}
          </Loaded>
          {classId !== '' && (
            <Loaded query={coursework} loading="Loading the class’s assignments…" empty="This class has no assignments in Google Classroom.">
              {(list) => (
                <Choice
                  label="Assignment"
                  placeholder="Choose an assignment"
                  value={courseworkId}
                  onChange={pickCoursework}
                  options={list.map((w) => ({ value: w.id, label: w.title || 'Untitled assignment' }))}
                />
              )}
            </Loaded>
          )}
          {courseworkId !== '' && (
            <Loaded query={work} loading="Loading the turned-in work…" empty="No student has turned in this assignment yet.">
              {(list) => <StudentWorkList work={list} selected={selected} onChange={setSelected} disabled={busy} />}
            </Loaded>
          )}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2, gap: 1, flexWrap: 'wrap' }}>
        <Button onClick={onClose} disabled={busy}>
          {result ? 'Done' : 'Cancel'}
        </Button>
        <Button variant="contained" onClick={() => void submit()} loading={busy} disabled={chosen.length === 0}>
          {chosen.length === 0 ? 'Import' : `Import ${plural(chosen.length, 'submission', 'submissions')}`}
        </Button>
      </DialogActions>
    </>
  );
}
