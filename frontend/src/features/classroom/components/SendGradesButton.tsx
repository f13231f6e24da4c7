import SchoolOutlined from '@mui/icons-material/SchoolOutlined';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { useLocation } from 'react-router';
import { lazyComponent } from '../../../components/lazy-component';

// Loads when first drawn: the page's first load does not carry it (docs/performance.md, "First load").
const SendGradesDialog = lazyComponent(() => import('./SendGradesDialog').then((m) => m.SendGradesDialog));

/** Props for {@link SendGradesButton}. */
export interface SendGradesButtonProps {
  assignmentId: string;
  /** The assignment's submissions as `db/assignment/get` lists them (read leniently). */
  submissions: unknown;
  /** The rows selected in the submissions table. */
  selectedIds: string[];
  /**
   * How many of the whole class came from Google Classroom (submission-rows' classroomSubmissions):
   * a class bigger than a page shows the button though the page shown has none of them.
   */
  classroomSubmissions?: number;
}

/** Whether any of the submissions was imported from Google Classroom. */
export function hasClassroomSubmissions(submissions: unknown): boolean {
  return (
    Array.isArray(submissions) &&
    submissions.some((s) => typeof s === 'object' && s !== null && (s as { source?: unknown }).source === 'google')
  );
}

/**
 * "Send grades to Classroom" in the submissions toolbar, shown only for an assignment with work
 * imported from Google Classroom; it opens {@link SendGradesDialog}.
 */
export function SendGradesButton({ assignmentId, submissions, selectedIds, classroomSubmissions = 0 }: SendGradesButtonProps) {
  const [open, setOpen] = useState(false);
  const { pathname, search } = useLocation();
  if (classroomSubmissions === 0 && !hasClassroomSubmissions(submissions)) return null;
  return (
    <>
      <Button variant="outlined" size="small" startIcon={<SchoolOutlined />} aria-haspopup="dialog" onClick={() => setOpen(true)}>
        Send grades to Classroom
      </Button>
      {open && <SendGradesDialog assignmentId={assignmentId} selectedIds={selectedIds} returnTo={pathname + search} onClose={() => setOpen(false)} />}
    </>
  );
}
