import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import type { CriterionBreakdown } from '../../api/types';
import { formatPoints } from '../../lib/rubric';

/** Each criterion's success rate as a labelled bar, with its average points. */
export function CriteriaRates({ rows, kind }: { rows: readonly CriterionBreakdown[]; kind: 'met' | 'earned' }) {
  return (
    <Box component="ul" aria-label="Success rate per criterion" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1.5 }}>
      {rows.map((row, i) => {
        const percent = Math.round(row.successRate * 100);
        const what = kind === 'met' ? `met by ${percent}%` : `${percent}% of points earned`;
        return (
          <Box component="li" key={i}>
            <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2, mb: 0.5 }}>
              <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                {row.label}
              </Typography>
              <Typography variant="body2" sx={{ fontWeight: 600, flexShrink: 0 }}>
                {`${percent}%`}
              </Typography>
            </Box>
            <LinearProgress
              variant="determinate"
              value={percent}
              aria-label={`${row.label}: ${what}, average ${formatPoints(row.averagePoints)} of ${formatPoints(row.maxPoints)} ${row.maxPoints === 1 ? 'point' : 'points'}`}
              sx={{ height: 8, borderRadius: 4 }}
            />
          </Box>
        );
      })}
    </Box>
  );
}
