import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { LoadError } from '../../../components/LoadError';
import { PageHeader } from '../../../components/PageHeader';
import { PageSpinner } from '../../../components/PageSpinner';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import {
  getModelCheckInfo,
  operatorKeys,
  runModelCheck,
  type ModelCheckReport,
  type ModelCheckResult,
  type OutputMode,
} from '../api/model-check';

/** The modes an operator may try; 'configured' is LLM_OUTPUT_MODE's. */
type ModeChoice = OutputMode | 'configured';
const MODES: { value: ModeChoice; label: string }[] = [
  { value: 'configured', label: 'As configured (LLM_OUTPUT_MODE)' },
  { value: 'auto', label: 'auto: json_schema, falling back on refusal' },
  { value: 'json_schema', label: 'json_schema: the provider enforces the schema' },
  { value: 'json_object', label: 'json_object: JSON mode, schema in the prompt' },
  { value: 'prompt', label: 'prompt: no response_format, JSON taken from the text' },
];

/** The name of each task, as the table shows it. */
const TASK_LABELS: Record<string, string> = {
  grade: 'Grade (2 questions)',
  feedback: 'Feedback (highlighters)',
  'rubric-feedback': 'Rubric feedback (3 criteria)',
  prompt: 'Prompt',
  handwriting: 'Handwritten page',
};

function taskLabel(task: string): string {
  return TASK_LABELS[task] ?? task;
}

function formatLatency(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function formatCost(cost: number | null): string {
  if (cost === null) return 'not priced';
  return cost < 1 ? `$${cost.toFixed(4)}` : `$${cost.toFixed(2)}`;
}

function validity(r: ModelCheckResult): string {
  if (r.valid) return r.retried ? 'yes, after a retry' : 'yes';
  return r.answered ? 'no' : 'no answer';
}

/**
 * The operators' provider check: what it will run against, a "Run the check" button with a
 * progress bar while the tasks run (seconds to minutes), then one row per task and each error in
 * plain words. Anyone who is not an operator sees "Page not found", as the server answers them.
 */
export function ModelCheckPage() {
  useDocumentTitle('Provider check');
  const info = useQuery({ queryKey: operatorKeys.modelCheck, queryFn: ({ signal }) => getModelCheckInfo(signal) });
  const [mode, setMode] = useState<ModeChoice>('configured');
  const check = useMutation({ mutationFn: (m: ModeChoice) => runModelCheck(m === 'configured' ? undefined : m) });

  if (info.isPending) return <PageSpinner label="Loading the provider settings" />;
  if (info.isError) {
    if (info.error instanceof ApiError && info.error.status === 404) {
      return (
        <>
          <Typography variant="h1" sx={{ mb: 2 }}>
            Page not found
          </Typography>
          <Typography color="text.secondary">
            We couldn&apos;t find the page you were looking for. It may have moved, or the link may be incomplete.
          </Typography>
        </>
      );
    }
    return (
      <LoadError
        message={errorMessage(info.error, "We couldn't load the provider settings.")}
        onRetry={() => void info.refetch()}
        retrying={info.isFetching}
      />
    );
  }

  const { settings, classSize, limit } = info.data;
  const tasks = settings.visionModel ? 5 : 4;
  return (
    <>
      <PageHeader
        title="Provider check"
        subtitle={`Sends ${tasks} short tasks through the configured AI provider, as grading does, before a class is graded.`}
      />
      <Paper variant="outlined" sx={{ p: 2, mb: 3 }}>
        <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0 }}>
          {[
            ['Provider', settings.baseUrl],
            ['Model', settings.model],
            ['Vision model', settings.visionModel || 'not set: the handwritten page is skipped'],
            ['Output mode', settings.mode],
            ['Prices', `LLM_PRICES ${settings.priced ? 'prices' : 'does not price'} ${settings.model}`],
          ].map(([term, value]) => (
            <Fragment key={term}>
              <Typography component="dt" color="text.secondary">
                {term}
              </Typography>
              <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                {value}
              </Typography>
            </Fragment>
          ))}
        </Box>
      </Paper>

      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', mb: 1 }}>
        <TextField
          select
          size="small"
          label="Mode to check"
          value={mode}
          onChange={(e) => setMode(e.target.value as ModeChoice)}
          disabled={check.isPending}
          sx={{ width: { xs: '100%', sm: 420 } }}
        >
          {MODES.map((m) => (
            <MenuItem key={m.value} value={m.value}>
              {m.label}
            </MenuItem>
          ))}
        </TextField>
        <Button variant="contained" onClick={() => check.mutate(mode)} loading={check.isPending}>
          Run the check
        </Button>
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
        Each run spends tokens: at most {limit.runs} runs an hour.
      </Typography>

      {check.isPending && (
        <Box role="status" sx={{ mb: 3 }}>
          <Typography sx={{ mb: 1 }}>
            Sending {tasks} tasks to {settings.baseUrl}… This takes a few seconds, or minutes for a slow local model.
          </Typography>
          <LinearProgress aria-label="Running the provider check" />
        </Box>
      )}
      {check.isError && (
        <Alert severity="error" sx={{ mb: 3 }}>
          {errorMessage(check.error, 'The check could not be run. Please try again.')}
        </Alert>
      )}
      {check.data && <ReportView report={check.data} classSize={classSize} />}
    </>
  );
}

/** A finished check: the verdict, the table, and each task's error or note. */
function ReportView({ report, classSize }: { report: ModelCheckReport; classSize: number }) {
  const ran = report.results.filter((r) => !r.skipped);
  const failed = ran.filter((r) => !r.valid);
  const messages = report.results.filter((r) => r.error || r.note);
  return (
    <Box component="section" aria-label="Check results">
      <Alert severity={report.passed ? 'success' : 'error'} sx={{ mb: 2 }}>
        {report.passed
          ? `All ${ran.length} tasks passed in ${formatLatency(report.durationMs)} (mode ${report.mode}).`
          : `${failed.length} of ${ran.length} tasks failed. First error: ${report.firstError ?? ''}`}
      </Alert>
      {report.advice && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {report.advice}
        </Alert>
      )}
      {/* It scrolls on a phone: focusable (tabIndex) so a keyboard can scroll it, named as a region. */}
      <TableContainer component={Paper} variant="outlined" tabIndex={0} role="region" aria-label="Tasks, scrollable" sx={{ mb: 2 }}>
        <Table size="small" aria-label="Tasks">
          <TableHead>
            <TableRow>
              <TableCell>Task</TableCell>
              <TableCell>Mode that worked</TableCell>
              <TableCell>Schema-valid</TableCell>
              <TableCell align="right">Latency</TableCell>
              <TableCell align="right">Prompt tokens</TableCell>
              <TableCell align="right">Cached</TableCell>
              <TableCell align="right">Completion tokens</TableCell>
              <TableCell align="right">Cost per class of {report.classSize || classSize}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {report.results.map((r) =>
              r.skipped ? (
                <TableRow key={r.task}>
                  <TableCell>{taskLabel(r.task)}</TableCell>
                  <TableCell colSpan={7}>Skipped: {r.skipped}</TableCell>
                </TableRow>
              ) : (
                <TableRow key={r.task}>
                  <TableCell>{taskLabel(r.task)}</TableCell>
                  <TableCell>{r.mode || '—'}</TableCell>
                  <TableCell sx={{ color: r.valid ? undefined : 'error.main' }}>{validity(r)}</TableCell>
                  <TableCell align="right">{formatLatency(r.latencyMs)}</TableCell>
                  <TableCell align="right">{r.promptTokens}</TableCell>
                  <TableCell align="right">{r.cachedPromptTokens}</TableCell>
                  <TableCell align="right">{r.completionTokens}</TableCell>
                  <TableCell align="right">{formatCost(r.classCost)}</TableCell>
                </TableRow>
              ),
            )}
          </TableBody>
        </Table>
      </TableContainer>
      {messages.length > 0 && (
        <Box component="ul" aria-label="Errors and notes" sx={{ pl: 3, m: 0 }}>
          {messages.map((r) => (
            <li key={r.task}>
              <Typography component="span" sx={{ fontWeight: 600 }}>
                {taskLabel(r.task)}:
              </Typography>{' '}
              {r.error ?? r.note}
            </li>
          ))}
        </Box>
      )}
    </Box>
  );
}
