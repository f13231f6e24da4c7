import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { Submission, SubmissionStatus } from '../api/types';

const LABELS: Record<SubmissionStatus, string> = {
  queued: 'Queued',
  extracting: 'Reading…',
  ready: 'Ready',
  failed: 'Failed',
};

const COLORS = { queued: 'default', extracting: 'info', ready: 'success', failed: 'error' } as const;

/** The status chip's label for `status`. */
export function statusLabel(status: SubmissionStatus): string {
  return LABELS[status];
}

/**
 * A submission's reading status: Queued, Reading…, Ready or Failed. A failure's reason (or a
 * ready submission's warning) shows under the chip and in its tooltip.
 */
export function StatusChip({ submission }: { submission: Submission }) {
  const { status, error } = submission;
  const chip = (
    <Chip
      label={LABELS[status]}
      color={COLORS[status]}
      size="small"
      variant={status === 'ready' ? 'outlined' : 'filled'}
      // success.main is 4.4:1 on a selected row's tint: the darker shade keeps AA there too.
      sx={{ fontWeight: 600, ...(status === 'ready' ? { color: 'success.dark' } : {}) }}
    />
  );
  if (!error) return chip;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: 0.5 }}>
      <Tooltip title={error} describeChild>
        {chip}
      </Tooltip>
      <Typography variant="body2" color={status === 'failed' ? 'error' : 'warning'} sx={{ maxWidth: 240, overflowWrap: 'anywhere' }}>
        {error}
      </Typography>
    </Box>
  );
}
