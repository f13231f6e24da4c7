import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { PointsDistribution } from '../../lib/breakdown';
import { formatPoints } from '../../lib/rubric';

const BAR_AREA = 120;

/**
 * The points distribution as a bar chart of plain boxes: one bar per point (or per tenth of the
 * maximum), the count above each bar, and each bar named for screen readers.
 */
export function PointsChart({ distribution }: { distribution: PointsDistribution }) {
  const { buckets, results, mean, max, scale } = distribution;
  const highest = Math.max(1, ...buckets.map((b) => b.count));
  const unit = scale === 'points' ? 'points' : 'of the points';
  return (
    <Box component="figure" sx={{ m: 0 }}>
      <Box
        role="list"
        aria-label="Points distribution"
        sx={{ display: 'flex', alignItems: 'flex-end', gap: { xs: 0.25, sm: 0.75 }, height: BAR_AREA + 40, overflowX: 'auto', pb: 0.5 }}
      >
        {buckets.map((b) => (
          <Box
            key={b.label}
            role="listitem"
            aria-label={`${b.label} ${unit}: ${b.count} ${b.count === 1 ? 'submission' : 'submissions'}`}
            sx={{ flex: '1 0 18px', display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'flex-end', height: '100%' }}
          >
            <Typography aria-hidden="true" variant="caption" sx={{ fontWeight: 600, color: b.count ? 'text.primary' : 'text.disabled' }}>
              {b.count}
            </Typography>
            <Box
              aria-hidden="true"
              sx={{
                width: '100%',
                maxWidth: 40,
                height: Math.max(2, Math.round((b.count / highest) * BAR_AREA)),
                bgcolor: b.count ? 'primary.main' : 'divider',
                borderRadius: '4px 4px 0 0',
              }}
            />
            <Typography aria-hidden="true" variant="caption" color="text.secondary" sx={{ whiteSpace: 'nowrap', fontSize: scale === 'percent' ? '0.625rem' : undefined }}>
              {b.label}
            </Typography>
          </Box>
        ))}
      </Box>
      <Typography component="figcaption" variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        {`${results} graded ${results === 1 ? 'submission' : 'submissions'} · average ${formatPoints(mean)} / ${formatPoints(max)} ${max === 1 ? 'point' : 'points'}`}
      </Typography>
    </Box>
  );
}
