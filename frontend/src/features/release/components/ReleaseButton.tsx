import SendRounded from '@mui/icons-material/SendRounded';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { lazyComponent } from '../../../components/lazy-component';

// Loads when first drawn: the page's first load does not carry it (docs/performance.md, "First load").
const ReleaseDialog = lazyComponent(() => import('./ReleaseDialog').then((m) => m.ReleaseDialog));

/** Props of {@link ReleaseButton}. */
export interface ReleaseButtonProps {
  assignmentId: string;
  /** The selected rows' submission ids. */
  selectedIds: string[];
  /** How many results are reviewed. */
  reviewedCount: number;
  /** The whole class's submissions graded before a question or criterion was added to the assignment. */
  questionsAddedIds?: string[];
  /** How many of those are reviewed. */
  questionsAddedReviewed?: number;
  onReleased?: () => void;
}

/** "Release" in the submissions toolbar: opens {@link ReleaseDialog}. */
export function ReleaseButton(props: ReleaseButtonProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outlined" size="small" startIcon={<SendRounded />} onClick={() => setOpen(true)}>
        Release
      </Button>
      <ReleaseDialog {...props} open={open} onClose={() => setOpen(false)} />
    </>
  );
}
