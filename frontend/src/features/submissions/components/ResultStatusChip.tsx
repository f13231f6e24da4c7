import CheckRounded from '@mui/icons-material/CheckRounded';
import ErrorOutlineRounded from '@mui/icons-material/ErrorOutlineRounded';
import Chip, { type ChipProps } from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import { Tooltip } from '../../../components/Tooltip';
import type { ResultStatus } from '../api/types';
import { isInProgress } from '../lib/function-results';
import { assignmentTypeInfo } from '../../../lib/assignment-type';

const LABELS: Record<ResultStatus, string> = {
  '': 'Not graded',
  'ready-to-grade': 'Ready to grade',
  grading: 'Grading…',
  'rubric-grading': 'Grading…',
  annotating: 'Annotating…',
  graded: 'Graded',
  annotated: 'Annotated',
  failed: 'Failed',
  reviewed: 'Reviewed',
};

const COLORS: Record<ResultStatus, ChipProps['color']> = {
  '': 'default',
  'ready-to-grade': 'default',
  grading: 'info',
  'rubric-grading': 'info',
  annotating: 'info',
  graded: 'success',
  annotated: 'success',
  failed: 'error',
  reviewed: 'success',
};

/** The result chip's label for `status` ("Not annotated" for a feedback assignment never run: its type's words). */
export function resultStatusLabel(status: ResultStatus, type?: string): string {
  const verbs = assignmentTypeInfo(type)?.verbs;
  if (status === '' && verbs) return `Not ${verbs.done}`;
  return LABELS[status] ?? LABELS[''];
}

/** Props for {@link ResultStatusChip}. */
export interface ResultStatusChipProps {
  status: ResultStatus;
  /** Why a failed result failed; shown in the chip's tooltip. */
  error?: string;
  /** The assignment's type, for the wording of a result never run. */
  type?: string;
}

/**
 * Where a submission's AI result stands: "Grading…" or "Annotating…" with a spinner while the AI
 * works, Graded or Annotated, Failed (the reason in its tooltip), Reviewed with a check.
 */
export function ResultStatusChip({ status, error = '', type }: ResultStatusChipProps) {
  const working = isInProgress(status);
  const icon = working ? (
    <CircularProgress
      size={12}
      thickness={6}
      color="inherit"
      aria-hidden="true"
      sx={{ '@media (prefers-reduced-motion: reduce)': { animationDuration: '4s' } }}
    />
  ) : status === 'reviewed' ? (
    <CheckRounded aria-hidden="true" />
  ) : status === 'failed' ? (
    <ErrorOutlineRounded aria-hidden="true" />
  ) : undefined;
  const color = COLORS[status] ?? 'default';
  const outlined = status === 'graded' || status === 'annotated' || status === '' || status === 'ready-to-grade';
  const chip = (
    <Chip
      label={resultStatusLabel(status, type)}
      color={color}
      size="small"
      icon={icon}
      variant={outlined ? 'outlined' : 'filled'}
      // Failures are focusable so keyboard users reach the tooltip with the reason.
      tabIndex={status === 'failed' && error ? 0 : undefined}
      sx={{
        fontWeight: 600,
        '& .MuiChip-icon': { ml: '6px' },
        // success.main is 4.4:1 on a selected row's tint: the darker shade keeps AA there too.
        ...(outlined && color === 'success' ? { color: 'success.dark' } : {}),
      }}
    />
  );
  if (status !== 'failed' || !error) return chip;
  return (
    <Tooltip title={error} describeChild>
      {chip}
    </Tooltip>
  );
}
