import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import type { AgreementFigures, AgreementReport } from '../../api/types';
import { kappaWords, percent, signed } from './format';

function capitalised(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function Figure({ term, value, hint }: { term: string; value: string; hint: string }) {
  return (
    <Box sx={{ border: 1, borderColor: 'divider', borderRadius: '10px', p: 1.5, minWidth: 0 }}>
      <Typography component="dt" variant="body2" color="text.secondary">
        {term}
      </Typography>
      <Typography component="dd" sx={{ m: 0, fontSize: '1.375rem', fontWeight: 700 }}>
        {value}
      </Typography>
      {/* a second dd: a <dl> group may hold only dt and dd */}
      <Typography component="dd" variant="caption" color="text.secondary" sx={{ m: 0, display: 'block' }}>
        {hint}
      </Typography>
    </Box>
  );
}

/**
 * The overall figures, each with a sentence that says what it counts. Accuracy (criteria met or
 * not) counts the same judgements as exact agreement when the benchmarks hold no levels (a points
 * assignment), so it is shown only beside levels, where the two differ.
 */
function OverallFigures({ overall }: { overall: AgreementFigures }) {
  const levels = overall.withinOne !== null;
  return (
    <Box
      component="dl"
      aria-label="Overall agreement"
      sx={{ m: 0, display: 'grid', gap: 1.5, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' } }}
    >
      <Figure
        term="Exact agreement"
        value={percent(overall.exact)}
        hint={
          levels
            ? 'Of all the AI’s choices on your benchmarks (levels and criteria), the share that matched yours exactly.'
            : 'Of the criteria on your benchmarks, the share the AI marked met or not met exactly as you did.'
        }
      />
      {levels && (
        <Figure
          term="Within one level"
          value={percent(overall.withinOne)}
          hint="Of the rubric levels, the share the AI put at most one level from yours: near misses count here."
        />
      )}
      {overall.kappa !== null && (
        <Figure
          term="Weighted kappa"
          value={overall.kappa.toFixed(2)}
          hint={`${capitalised(kappaWords(overall.kappa))} (1 is perfect): agreement on levels beyond what chance would give, big misses counting more.`}
        />
      )}
      {levels && overall.accuracy !== null && (
        <Figure
          term="Accuracy"
          value={percent(overall.accuracy)}
          hint="Of the met-or-not criteria only (no levels), the share the AI decided as you did."
        />
      )}
      <Figure
        term="Mean point difference"
        value={signed(overall.meanPointDiff)}
        hint="The AI’s total minus yours, averaged over the benchmark results: above 0, the AI gives more points."
      />
    </Box>
  );
}

/** Props of {@link AgreementReportView}. */
export interface AgreementReportViewProps {
  report: AgreementReport;
  /** Where a submission's review screen is; each disagreement links to it when given. */
  submissionHref?: (submissionId: string) => string;
}

/** The figures of an agreement check: overall, per criterion, and the disagreements to look at. */
export function AgreementReportView({ report, submissionHref }: AgreementReportViewProps) {
  const hasWithin = report.criteria.some((c) => c.withinOne !== null);
  const hasKappa = report.criteria.some((c) => c.kappa !== null);
  // As overall: without levels, accuracy counts what "Exact" counts.
  const hasAccuracy = hasWithin && report.criteria.some((c) => c.accuracy !== null);
  const computed = new Date(report.computedAt);
  return (
    <Box sx={{ display: 'grid', gap: 3 }}>
      <Typography variant="body2" color="text.secondary">
        {`Checked against ${report.benchmarks} benchmark ${report.benchmarks === 1 ? 'result' : 'results'}`}
        {Number.isNaN(computed.getTime()) ? '.' : ` on ${dateFormat.format(computed)}.`}
      </Typography>
      <OverallFigures overall={report.overall} />
      {report.criteria.length > 0 && (
        // It scrolls sideways on a phone: focusable so a keyboard can scroll it, named as a region.
        <TableContainer
          tabIndex={0}
          role="region"
          aria-label="Agreement per criterion, scrollable"
          sx={{ border: 1, borderColor: 'divider', borderRadius: '10px', overflowX: 'auto' }}
        >
          <Table size="small" aria-label="Agreement per criterion" sx={{ minWidth: 520 }}>
            <TableHead>
              <TableRow sx={{ '& th': { fontWeight: 600 } }}>
                <TableCell>Criterion</TableCell>
                <TableCell align="right">Exact</TableCell>
                {hasWithin && <TableCell align="right">Within one</TableCell>}
                {hasKappa && <TableCell align="right">Kappa</TableCell>}
                {hasAccuracy && <TableCell align="right">Accuracy</TableCell>}
                <TableCell align="right">Mean difference</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {report.criteria.map((c, i) => (
                <TableRow key={i} sx={{ '&:last-child td, &:last-child th': { borderBottom: 0 } }}>
                  <TableCell component="th" scope="row" sx={{ overflowWrap: 'break-word', minWidth: 140 }}>
                    {c.label}
                  </TableCell>
                  <TableCell align="right">{percent(c.exact)}</TableCell>
                  {hasWithin && <TableCell align="right">{percent(c.withinOne)}</TableCell>}
                  {hasKappa && <TableCell align="right">{c.kappa === null ? '—' : c.kappa.toFixed(2)}</TableCell>}
                  {hasAccuracy && <TableCell align="right">{percent(c.accuracy)}</TableCell>}
                  <TableCell align="right">{signed(c.meanPointDiff)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <Box>
        <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
          {`Disagreements (${report.disagreements.length})`}
        </Typography>
        {report.disagreements.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            The AI agreed with you on every benchmark.
          </Typography>
        ) : (
          <Box component="ul" aria-label="Disagreements" sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 1 }}>
            {report.disagreements.map((d, i) => (
              <Box component="li" key={i} sx={{ borderLeft: 3, borderColor: 'warning.main', pl: 1.5, py: 0.25 }}>
                <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                  {submissionHref && d.submissionId ? (
                    <Link component={RouterLink} to={submissionHref(d.submissionId)} underline="always">
                      {d.submissionName || 'Submission'}
                    </Link>
                  ) : (
                    d.submissionName || 'Submission'
                  )}
                  {` · ${d.label}`}
                </Typography>
                <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                  {`You: ${d.teacher} · AI: ${d.ai}`}
                </Typography>
              </Box>
            ))}
          </Box>
        )}
      </Box>
    </Box>
  );
}
