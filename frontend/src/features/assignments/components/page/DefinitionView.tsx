import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import type { ComponentType } from 'react';
import { ApiError } from '../../../../lib/api-client';
import { useAssignmentFunction } from '../../api/get-function';
import type { Assignment } from '../../api/types';
import type { DefinitionProps } from './definition-props';

/**
 * An assignment's definition, read-only, drawn by `Definition`: the component its type's module
 * gives (app/processes). Nothing is drawn for a type this build does not know.
 */
export function DefinitionView({ assignment, Definition }: { assignment: Assignment; Definition?: ComponentType<DefinitionProps> }) {
  const fn = useAssignmentFunction(assignment._id, assignment.type);
  if (fn.isPending) {
    return (
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, color: 'text.secondary', py: 2 }}>
        <CircularProgress size={20} aria-label="Loading definition" />
        <Typography color="inherit">Loading…</Typography>
      </Box>
    );
  }
  if (fn.isError) {
    if (fn.error instanceof ApiError && fn.error.status === 404) {
      return <Alert severity="info">This assignment has no definition yet.</Alert>;
    }
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void fn.refetch()}>
            Try again
          </Button>
        }
      >
        We couldn&apos;t load the definition.
      </Alert>
    );
  }
  return Definition ? <Definition fn={fn.data} /> : null;
}
