import PrintOutlined from '@mui/icons-material/PrintOutlined';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { lazyComponent } from '../../../components/lazy-component';
import { useStartReportRun } from '../hooks/use-report-run';

// Loads when first drawn: the page's first load does not carry it (docs/performance.md, "First load").
const PrintReportsDialog = lazyComponent(() => import('./PrintReportsDialog').then((m) => m.PrintReportsDialog));

/** Props for {@link PrintReportsButton}. */
export interface PrintReportsButtonProps {
  assignmentId: string;
  /** The selected submissions; empty prints every submission. */
  submissionIds: readonly string[];
  disabled?: boolean;
}

/**
 * "Print reports" in the submissions toolbar: starts a run over the selected rows (or all of them)
 * and opens its dialog (progress, then the ZIP and the one PDF to print).
 */
export function PrintReportsButton({ assignmentId, submissionIds, disabled }: PrintReportsButtonProps) {
  const [open, setOpen] = useState(false);
  const start = useStartReportRun(assignmentId);
  const ids = [...submissionIds];
  const begin = () => {
    start.reset();
    start.mutate(ids);
  };
  return (
    <>
      <Button
        variant="outlined"
        size="small"
        startIcon={<PrintOutlined />}
        disabled={disabled}
        onClick={() => {
          setOpen(true);
          begin();
        }}
      >
        {ids.length > 0 ? `Print reports (${ids.length})` : 'Print reports'}
      </Button>
      <PrintReportsDialog
        open={open}
        assignmentId={assignmentId}
        starting={start.isPending}
        startError={start.error}
        onRetry={begin}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
