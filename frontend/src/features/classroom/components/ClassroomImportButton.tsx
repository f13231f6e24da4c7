import SchoolOutlined from '@mui/icons-material/SchoolOutlined';
import Button from '@mui/material/Button';
import type { QueryKey } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation } from 'react-router';
import { lazyComponent } from '../../../components/lazy-component';
import { DisabledWithReason } from '../../../components/DisabledWithReason';
import { useClassroomStatus } from '../api/get-status';
import type { ClassroomAssignment } from '../api/types';
import { useConnectOutcome } from '../hooks/use-connect-outcome';

// Loads when first drawn: the page's first load does not carry it (docs/performance.md, "First load").
const ClassroomDialog = lazyComponent(() => import('./ClassroomDialog').then((m) => m.ClassroomDialog));

/** Shown when the server gives no reason why Classroom is unavailable. */
const UNAVAILABLE_MESSAGE = 'Google Classroom is not available on this server';

/** Props for {@link ClassroomImportButton}. */
export interface ClassroomImportButtonProps {
  /** The assignment the work is imported into. */
  assignment: ClassroomAssignment;
  /** The key of the page's assignment query (`db/assignment/get`); refetched after an import. */
  assignmentQueryKey: QueryKey;
}

/**
 * "Google Classroom" on the assignment page. When the server cannot reach Classroom the button is
 * disabled and its tooltip says why; otherwise it opens a dialog that connects the teacher's
 * Google account (a trip to Google's consent screen and back to this page) or, once connected,
 * picks a class, one of its assignments and the turned-in work to import. Coming back from
 * Google, the outcome is toasted.
 */
export function ClassroomImportButton({ assignment, assignmentQueryKey }: ClassroomImportButtonProps) {
  const status = useClassroomStatus();
  const [open, setOpen] = useState(false);
  const { pathname, search } = useLocation();
  useConnectOutcome();

  if (status.data && !status.data.configured) {
    return (
      <DisabledWithReason reason={status.data.reason || UNAVAILABLE_MESSAGE} startIcon={<SchoolOutlined />}>
        Google Classroom
      </DisabledWithReason>
    );
  }

  return (
    <>
      <Button
        variant="outlined"
        startIcon={<SchoolOutlined />}
        loading={status.isPending}
        loadingPosition="start"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        Google Classroom
      </Button>
      {open && (
        <ClassroomDialog
          assignment={assignment}
          assignmentQueryKey={assignmentQueryKey}
          returnTo={pathname + search}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}
