import FactCheckOutlined from '@mui/icons-material/FactCheckOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { QueryKey } from '@tanstack/react-query';
import { DisabledWithReason } from '../../../../components/DisabledWithReason';
import { useToast } from '../../../../components/toast';
import { errorMessage } from '../../../../lib/api-client';
import { MIN_BENCHMARKS, NEED_BENCHMARKS_MESSAGE, useCheckAgreement } from '../../api/check-agreement';
import type { AgreementReport, FunctionResult } from '../../api/types';
import type { JobStatus } from '../../lib/normalize';
import { Panel } from '../summary/Panel';
import { AgreementReportView } from './AgreementReportView';

/** Props of {@link AgreementPanel}. */
export interface AgreementPanelProps {
  assignmentId: string;
  /** The page's assignment query: refreshed when a check starts, and polled by the page while it runs. */
  assignmentQueryKey: QueryKey;
  results: readonly FunctionResult[];
  report: AgreementReport | null;
  status: JobStatus;
  /** Where a submission's review screen is; each disagreement links to it when given. */
  submissionHref?: (submissionId: string) => string;
}

/**
 * How closely the AI grades like the teacher: with at least 3 benchmark results, "Check
 * agreement" regrades each benchmark with the others as examples and shows exact agreement,
 * agreement within one level, kappa or accuracy, the mean point difference, per criterion, and
 * the disagreements.
 */
export function AgreementPanel({ assignmentId, assignmentQueryKey, results, report, status, submissionHref }: AgreementPanelProps) {
  const check = useCheckAgreement(assignmentQueryKey);
  const { showToast } = useToast();
  const benchmarks = results.filter((r) => r.isBenchmark).length;
  const running = status === 'running' || check.isPending;

  const onCheck = () =>
    check.mutate(assignmentId, {
      onError: (error) => showToast({ type: 'error', message: errorMessage(error, 'Could not start the agreement check. Please try again.') }),
    });

  let action;
  if (benchmarks < MIN_BENCHMARKS) {
    action = (
      <DisabledWithReason reason={NEED_BENCHMARKS_MESSAGE} startIcon={<FactCheckOutlined />}>
        Check agreement
      </DisabledWithReason>
    );
  } else {
    action = (
      <Button variant="outlined" startIcon={<FactCheckOutlined />} onClick={onCheck} disabled={running}>
        {running ? 'Checking…' : 'Check agreement'}
      </Button>
    );
  }

  return (
    <Panel
      title="Agreement with your grading"
      description={`${benchmarks} benchmark ${benchmarks === 1 ? 'result' : 'results'}. Mark results you have checked as benchmarks; the AI regrades each one with the others as examples and is compared with you.`}
      action={action}
    >
      <Stack spacing={2}>
        {running && (
          <div role="status">
            <Typography variant="body2" sx={{ mb: 1 }}>
              Checking… the AI is regrading your benchmarks. This page updates by itself.
            </Typography>
            <LinearProgress aria-label="Checking agreement" />
          </div>
        )}
        {!running && status === 'failed' && (
          <Alert severity="error" variant="outlined">
            The last agreement check did not finish. Please check again.
          </Alert>
        )}
        {report ? (
          <AgreementReportView report={report} submissionHref={submissionHref} />
        ) : (
          !running && (
            <Typography color="text.secondary">
              {benchmarks < MIN_BENCHMARKS ? NEED_BENCHMARKS_MESSAGE : 'Check agreement to see how closely the AI grades like you.'}
            </Typography>
          )
        )}
      </Stack>
    </Panel>
  );
}
