import FlagRounded from '@mui/icons-material/FlagRounded';
import Box from '@mui/material/Box';
import { Tooltip } from '../../../components/Tooltip';
import Typography from '@mui/material/Typography';
import type { ResultSummary } from '../api/types';
import { ResultStatusChip } from './ResultStatusChip';

/** How long a flagged passage may be in the flag's tooltip before it is cut. */
const PASSAGE_PREVIEW = 140;

function preview(passage: string): string {
  const oneLine = passage.replace(/\s+/g, ' ').trim();
  return oneLine.length > PASSAGE_PREVIEW ? `${oneLine.slice(0, PASSAGE_PREVIEW)}…` : oneLine;
}

/** The points of a finished result, "7 / 10", or null when it has none to show. */
export function pointsText(result: Pick<ResultSummary, 'status' | 'totalPoints' | 'maxPoints'>): string | null {
  const done = result.status === 'graded' || result.status === 'reviewed';
  if (!done || result.totalPoints === null || result.maxPoints === null) return null;
  const format = (n: number) => String(Math.round(n * 100) / 100);
  return `${format(result.totalPoints)} / ${format(result.maxPoints)}`;
}

/** The flag of a submission that tried to instruct the grader, with the passage in its tooltip. */
function InjectionFlag({ passages }: { passages: string[] }) {
  const title = (
    <>
      <strong>May try to instruct the AI grader</strong>
      {passages.filter(Boolean).map((p, i) => (
        // Rendered as text: the passage is the student's, never markup.
        <Box key={i} component="span" sx={{ display: 'block', mt: 0.5 }}>
          “{preview(p)}”
        </Box>
      ))}
    </>
  );
  return (
    <Tooltip title={title}>
      <Box
        component="span"
        role="img"
        tabIndex={0}
        aria-label="Flagged: may try to instruct the AI grader"
        sx={{ display: 'inline-flex', color: 'warning.main', borderRadius: 1, '&:focus-visible': { outline: '2px solid', outlineOffset: 2 } }}
      >
        <FlagRounded fontSize="small" />
      </Box>
    </Tooltip>
  );
}

/** "Graded against an earlier version": the definition changed since the result was graded. */
export const OUTDATED_LABEL = 'Graded against an earlier version';

function OutdatedNote({ parts }: { parts: string[] }) {
  const changed = parts.length > 0 ? `Changed since: ${parts.join(', ')}.` : 'The assignment changed since.';
  return (
    <Tooltip title={changed}>
      <Typography
        variant="body2"
        component="span"
        tabIndex={0}
        aria-label={`${OUTDATED_LABEL}. ${changed}`}
        sx={{ color: 'warning.dark', fontSize: '0.8125rem', fontWeight: 500, flexBasis: '100%', borderRadius: 1, '&:focus-visible': { outline: '2px solid', outlineOffset: 2 } }}
      >
        {OUTDATED_LABEL}
      </Typography>
    </Tooltip>
  );
}

/** A row's result: its status chip, the points of a finished grade or rubric result, and any flag. */
export function ResultCell({ result, type }: { result: ResultSummary | undefined; type: string }) {
  if (!result) return <ResultStatusChip status="" type={type} />;
  const points = pointsText(result);
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
      <ResultStatusChip status={result.status} error={result.error} type={type} />
      {points && (
        <Typography variant="body2" sx={{ fontWeight: 600, fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
          {points}
        </Typography>
      )}
      {result.injectionPassages.length > 0 && <InjectionFlag passages={result.injectionPassages} />}
      {result.outdated && <OutdatedNote parts={result.outdatedParts} />}
    </Box>
  );
}
