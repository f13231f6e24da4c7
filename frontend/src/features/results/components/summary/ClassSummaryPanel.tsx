import AutoAwesomeOutlined from '@mui/icons-material/AutoAwesomeOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { QueryKey } from '@tanstack/react-query';
import { useMemo } from 'react';
import { DisabledWithReason } from '../../../../components/DisabledWithReason';
import { useToast } from '../../../../components/toast';
import { assignmentTypeInfo } from '../../../../lib/assignment-type';
import { SUMMARY_FAILED_MESSAGE, useGenerateSummary } from '../../api/generate-summary';
import type { ClassSummary, FunctionResult } from '../../api/types';
import { criteriaBreakdown, pointsDistribution } from '../../lib/breakdown';
import type { ResultFunction } from '../../lib/definition';
import { CriteriaRates } from './CriteriaRates';
import { Panel } from './Panel';
import { PointsChart } from './PointsChart';
import { SummaryView } from './SummaryView';

/** Props of {@link ClassSummaryPanel}. */
export interface ClassSummaryPanelProps {
  assignmentId: string;
  /** The page's assignment query, refreshed once a summary is stored on the assignment. */
  assignmentQueryKey: QueryKey;
  /** The assignment's type: its info (lib/assignment-type) says how its criteria score. */
  type: string;
  /** The assignment's definition, once loaded. */
  fn: ResultFunction | undefined;
  results: readonly FunctionResult[];
  /** The summary stored on the assignment, if any. */
  summary: ClassSummary | null;
}

/**
 * How the class did: the points distribution, each criterion's success rate (computed here from
 * the finished results), and the AI's summary of what the class met and missed, made on request
 * from those figures with `ai-assist/generate-summary`.
 */
export function ClassSummaryPanel({ assignmentId, assignmentQueryKey, type, fn, results, summary }: ClassSummaryPanelProps) {
  const rows = useMemo(() => criteriaBreakdown(type, fn, results), [type, fn, results]);
  const criteria = assignmentTypeInfo(type)?.criteria;
  const distribution = useMemo(() => pointsDistribution(results), [results]);
  const generate = useGenerateSummary(assignmentQueryKey);
  const { showToast } = useToast();
  const shown = generate.data ?? summary;

  const onGenerate = () =>
    generate.mutate(
      { assignmentId, criteriaBreakdown: rows },
      { onError: () => showToast({ type: 'error', message: SUMMARY_FAILED_MESSAGE }) },
    );

  const action =
    distribution.results === 0 ? (
      <DisabledWithReason reason="Grade at least one submission to summarise the class." startIcon={<AutoAwesomeOutlined />}>
        Generate summary
      </DisabledWithReason>
    ) : (
      <Button variant="outlined" startIcon={<AutoAwesomeOutlined />} onClick={onGenerate} loading={generate.isPending} loadingPosition="start">
        {generate.isPending ? 'Generating…' : shown ? 'Generate again' : 'Generate summary'}
      </Button>
    );

  return (
    <Panel title="Class summary" description="How the class did, from the graded results." action={action}>
      {distribution.results === 0 ? (
        <Typography color="text.secondary">No graded submissions yet. Grade the class to see how it did.</Typography>
      ) : (
        <Box
          sx={{
            display: 'grid',
            gap: 3,
            gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) minmax(0, 1fr)' },
          }}
        >
          <Box sx={{ minWidth: 0 }}>
            <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
              Points distribution
            </Typography>
            <PointsChart distribution={distribution} />
          </Box>
          <Box sx={{ minWidth: 0 }}>
            <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
              {criteria === 'met' ? 'Criteria met' : 'Points earned per criterion'}
            </Typography>
            {rows.length ? (
              <CriteriaRates rows={rows} kind={criteria === 'met' ? 'met' : 'earned'} />
            ) : (
              <Typography color="text.secondary">This assignment has no criteria.</Typography>
            )}
          </Box>
        </Box>
      )}
      {shown && (
        <Stack spacing={2} sx={{ mt: 3, pt: 3, borderTop: 1, borderColor: 'divider' }}>
          <SummaryView summary={shown} />
        </Stack>
      )}
    </Panel>
  );
}
