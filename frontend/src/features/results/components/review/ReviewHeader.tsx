import ArrowBackRounded from '@mui/icons-material/ArrowBackRounded';
import CheckCircleOutlineRounded from '@mui/icons-material/CheckCircleOutlineRounded';
import ChevronLeftRounded from '@mui/icons-material/ChevronLeftRounded';
import ChevronRightRounded from '@mui/icons-material/ChevronRightRounded';
import KeyboardOutlined from '@mui/icons-material/KeyboardOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Switch from '@mui/material/Switch';
import { Tooltip } from '../../../../components/Tooltip';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';

/** Props for {@link ReviewHeader}. */
export interface ReviewHeaderProps {
  assignmentName: string;
  assignmentPath: string;
  submissionName: string;
  /** The result's status chip (composed by the page). */
  statusChip: ReactNode;
  /** "7 / 10", or null when the result has no points. */
  total: string | null;
  /** Where this submission sits (0-based; -1 when unknown) among `count`. */
  index: number;
  count: number;
  previousPath: string | null;
  nextPath: string | null;
  /** The benchmark switch; null hides it (no finished result yet, or a type without benchmarks). */
  benchmark: { checked: boolean; onChange: (checked: boolean) => void } | null;
  /** "Mark reviewed"; null hides it. */
  review: { reviewed: boolean; pending: boolean; onChange: (reviewed: boolean) => void } | null;
  onShowShortcuts: () => void;
  /** More buttons beside "Mark reviewed" (the page composes other features': the report download). */
  actions?: ReactNode;
}

function NavButton({ to, label, shortcut, children }: { to: string | null; label: string; shortcut: string; children: ReactNode }) {
  const button = to ? (
    // Moving between submissions replaces the entry: Back returns to where the review began.
    <IconButton component={RouterLink} to={to} replace aria-label={label} aria-keyshortcuts={shortcut}>
      {children}
    </IconButton>
  ) : (
    <IconButton aria-label={label} disabled>
      {children}
    </IconButton>
  );
  // The span lets the tooltip show on a disabled button too.
  return (
    <Tooltip title={`${label} (${shortcut})`} describeChild>
      <span>{button}</span>
    </Tooltip>
  );
}

/**
 * The top of the review screen: back to the assignment, the submission's name, status and total,
 * and what a teacher does with the result (benchmark, mark reviewed) and where to go next.
 */
export function ReviewHeader(props: ReviewHeaderProps) {
  const { assignmentName, assignmentPath, submissionName, statusChip, total, index, count, benchmark, review } = props;
  return (
    <Box component="header" sx={{ mb: 2 }}>
      <Link
        component={RouterLink}
        to={assignmentPath}
        underline="hover"
        sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, fontWeight: 500, mb: 1.5, overflowWrap: 'anywhere' }}
      >
        <ArrowBackRounded aria-hidden="true" sx={{ fontSize: 18 }} />
        {assignmentName || 'Assignment'}
      </Link>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5 }}>
        <Typography variant="h1" sx={{ overflowWrap: 'anywhere', fontSize: { xs: '1.5rem', sm: '2rem' } }}>
          {submissionName}
        </Typography>
        {statusChip}
        {total && (
          <Typography sx={{ fontWeight: 600, fontSize: '1.125rem', fontVariantNumeric: 'tabular-nums' }} aria-label={`Total ${total} points`}>
            {total}
          </Typography>
        )}
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 1.5, mt: 1.5 }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5 }}>
          {benchmark && (
            <FormControlLabel
              control={<Switch checked={benchmark.checked} onChange={(e) => benchmark.onChange(e.target.checked)} />}
              label="Benchmark"
            />
          )}
          {review && (
            <Button
              variant={review.reviewed ? 'outlined' : 'contained'}
              size="small"
              startIcon={review.reviewed ? undefined : <CheckCircleOutlineRounded />}
              loading={review.pending}
              onClick={() => review.onChange(!review.reviewed)}
            >
              {review.reviewed ? 'Mark not reviewed' : 'Mark reviewed'}
            </Button>
          )}
          {props.actions}
        </Box>
        <Box component="nav" aria-label="Submissions" sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
          <NavButton to={props.previousPath} label="Previous submission" shortcut="k">
            <ChevronLeftRounded />
          </NavButton>
          <Typography variant="body2" color="text.secondary" sx={{ minWidth: 56, textAlign: 'center', fontVariantNumeric: 'tabular-nums' }}>
            {index >= 0 ? `${index + 1} of ${count}` : `${count} in all`}
          </Typography>
          <NavButton to={props.nextPath} label="Next submission" shortcut="j">
            <ChevronRightRounded />
          </NavButton>
          <Tooltip title="Keyboard shortcuts (?)" describeChild>
            <IconButton aria-label="Keyboard shortcuts" aria-keyshortcuts="?" onClick={props.onShowShortcuts}>
              <KeyboardOutlined />
            </IconButton>
          </Tooltip>
        </Box>
      </Box>
    </Box>
  );
}
