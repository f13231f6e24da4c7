import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { AutosaveStatus } from '../../hooks/use-autosave';

/** Props of {@link SaveStatus}. */
export interface SaveStatusProps {
  status: AutosaveStatus;
  /** Said before anything was changed (nothing when unset). */
  idle?: string;
  /** Saves the unsaved changes again. */
  onRetry: () => void;
}

/** Says where the teacher's typed changes stand: "Saving…", "Saved", or that they are not saved, with Retry. */
export function SaveStatus({ status, idle = '', onRetry }: SaveStatusProps) {
  const text =
    status === 'pending' || status === 'saving' ? 'Saving…' : status === 'saved' ? 'Saved' : status === 'error' ? 'Your changes are not saved.' : idle;
  return (
    <Box aria-live="polite" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
      <Typography variant="body2" color={status === 'error' ? 'error' : 'text.secondary'} component="span">
        {text}
      </Typography>
      {status === 'error' && (
        <Button size="small" onClick={onRetry}>
          Retry
        </Button>
      )}
    </Box>
  );
}
