import SchoolOutlined from '@mui/icons-material/SchoolOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Tooltip from '@mui/material/Tooltip';
import type { QueryKey } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation } from 'react-router';
import { useClassroomStatus } from '../api/get-status';
import type { ClassroomAssignment } from '../api/types';
import { useConnectOutcome } from '../hooks/use-connect-outcome';
import { ClassroomDialog } from './ClassroomDialog';

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
      <Tooltip title={status.data.reason || UNAVAILABLE_MESSAGE} describeChild>
        {/* A disabled button gets no pointer or focus events; the wrapper shows the tooltip. */}
        <Box component="span" tabIndex={0} sx={{ display: 'inline-flex', borderRadius: 1 }}>
          <Button variant="outlined" startIcon={<SchoolOutlined />} disabled>
            Google Classroom
          </Button>
        </Box>
      </Tooltip>
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
