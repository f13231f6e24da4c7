import WarningAmberRounded from '@mui/icons-material/WarningAmberRounded';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import { Tooltip } from '../../../components/Tooltip';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
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

/** The pages of a doubtful submission, for a label: "page 2", "pages 2 and 5", "4 pages". */
export function doubtfulLabel(pages: number[]): string {
  if (pages.length === 1) return `page ${pages[0]}`;
  if (pages.length <= 3) return `pages ${pages.slice(0, -1).join(', ')} and ${pages[pages.length - 1]}`;
  return `${pages.length} pages`;
}

/**
 * A link to the original of a submission whose text may be misread, at its first doubtful page: a
 * warning chip ("Check page 2") whose tooltip is the submission's warning.
 */
function CheckOriginalChip({ submission, to }: { submission: Submission; to: string }) {
  return (
    <Tooltip title={submission.error || 'The text may be misread: check it against the original'} describeChild>
      <Chip
        component={RouterLink}
        to={to}
        clickable
        icon={<WarningAmberRounded />}
        label={`Check ${doubtfulLabel(submission.doubtfulPages)}`}
        aria-label={`Check ${doubtfulLabel(submission.doubtfulPages)} of ${submission.name} against the original`}
        color="warning"
        size="small"
        variant="outlined"
        sx={{ fontWeight: 600, color: 'warning.dark', '& .MuiChip-icon': { color: 'warning.dark' } }}
      />
    </Tooltip>
  );
}

/** Props for {@link StatusChip}. */
export interface StatusChipProps {
  submission: Submission;
  /** The review screen at a page (from 1) with its original shown; given, a doubtful submission links there. */
  checkPath?: (page: number) => string;
}

/**
 * A submission's reading status: Queued, Reading…, Ready or Failed. A failure's reason (or a
 * ready submission's warning) shows under the chip and in its tooltip; a submission whose text may
 * be misread gets a "Check page N" chip to its original.
 */
export function StatusChip({ submission, checkPath }: StatusChipProps) {
  const { status, error } = submission;
  const doubtful = status === 'ready' && submission.doubtfulPages.length > 0;
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
      <Typography variant="body2" color={status === 'failed' ? 'error' : 'warning.dark'} sx={{ maxWidth: 240, overflowWrap: 'anywhere' }}>
        {error}
      </Typography>
      {doubtful && checkPath && <CheckOriginalChip submission={submission} to={checkPath(submission.doubtfulPages[0])} />}
    </Box>
  );
}
