import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useIsMutating, type QueryKey } from '@tanstack/react-query';
import { useId } from 'react';
import { LoadError } from '../../../components/LoadError';
import { errorMessage } from '../../../lib/api-client';
import { useClassroomStatus } from '../api/get-status';
import { importMutationKey } from '../api/import-submissions';
import type { ClassroomAssignment } from '../api/types';
import { ClassroomPicker } from './ClassroomPicker';
import { ConnectStep } from './ConnectStep';

/** Props for {@link ClassroomDialog}. */
export interface ClassroomDialogProps {
  assignment: ClassroomAssignment;
  assignmentQueryKey: QueryKey;
  /** The page to come back to after connecting. */
  returnTo: string;
  onClose: () => void;
}

/**
 * "Import from Google Classroom": connects the teacher's Google account first when needed, then
 * picks the work to import. Full screen on a phone; it cannot be dismissed while importing.
 */
export function ClassroomDialog({ assignment, assignmentQueryKey, returnTo, onClose }: ClassroomDialogProps) {
  const titleId = useId();
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const status = useClassroomStatus();
  const importing = useIsMutating({ mutationKey: importMutationKey }) > 0;

  let body;
  if (status.isPending) {
    body = (
      <DialogContent dividers>
        <Box sx={{ display: 'grid', placeItems: 'center', py: 4 }}>
          <CircularProgress aria-label="Checking your Google Classroom connection" />
        </Box>
      </DialogContent>
    );
  } else if (status.isError) {
    body = (
      <>
        <DialogContent dividers>
          <LoadError
            message={errorMessage(status.error, "Couldn't check your Google Classroom connection.")}
            onRetry={() => void status.refetch()}
            retrying={status.isFetching}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, py: 2 }}>
          <Button onClick={onClose}>Close</Button>
        </DialogActions>
      </>
    );
  } else if (!status.data.connected) {
    body = <ConnectStep reason={status.data.reason} returnTo={returnTo} onClose={onClose} />;
  } else {
    body = <ClassroomPicker assignment={assignment} assignmentQueryKey={assignmentQueryKey} returnTo={returnTo} onClose={onClose} />;
  }

  return (
    <Dialog
      open
      onClose={importing ? undefined : onClose}
      aria-labelledby={titleId}
      maxWidth="sm"
      fullWidth
      fullScreen={fullScreen}
      scroll="paper"
    >
      <DialogTitle id={titleId}>Import from Google Classroom</DialogTitle>
      {body}
    </Dialog>
  );
}
