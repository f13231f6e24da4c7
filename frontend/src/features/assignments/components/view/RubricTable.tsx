import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { Rubric, RubricCriterion } from '../../api/types';

/** The criterion column stays put while the levels scroll sideways on narrow screens. */
const STICKY = {
  position: 'sticky',
  left: 0,
  zIndex: 1,
  bgcolor: 'background.paper',
  borderRight: 1,
  borderRightColor: 'divider',
} as const;

function rangeText(criterion: RubricCriterion, levelIndex: number): string | null {
  if (!criterion.useRange) return null;
  const range = criterion.levelRanges?.find((r) => r.levelDescriptionsIndex === levelIndex);
  if (!range || range.min === undefined || range.max === undefined) return null;
  return range.min === range.max ? `${range.min} pts` : `${range.min}–${range.max} pts`;
}

/**
 * A rubric as a table: one row per criterion, one column per level. Wide rubrics scroll sideways
 * inside the table rather than stretching the page.
 */
export function RubricTable({ rubric }: { rubric: Rubric }) {
  const levelCount = Math.max(1, ...rubric.criteria.map((c) => c.levelDescriptions.length));
  const levels = Array.from({ length: levelCount }, (_, i) => i);
  return (
    <TableContainer
      sx={{ border: 1, borderColor: 'divider', borderRadius: '10px', overflowX: 'auto' }}
      tabIndex={0}
      aria-label={`${rubric.name} criteria and levels`}
      role="region"
    >
      <Table size="small" sx={{ minWidth: { xs: 128 + levelCount * 120, sm: 180 + levelCount * 120 }, '& td, & th': { verticalAlign: 'top' } }}>
        <TableHead>
          <TableRow sx={{ '& th': { bgcolor: '#f1f5f4', fontWeight: 600 } }}>
            <TableCell component="th" scope="col" sx={{ width: { xs: 128, sm: 180 }, ...STICKY }}>
              Criterion
            </TableCell>
            {levels.map((i) => (
              <TableCell key={i} component="th" scope="col">
                Level {i + 1}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rubric.criteria.map((c, row) => (
            <TableRow key={row} sx={{ '&:last-child td, &:last-child th': { borderBottom: 0 } }}>
              <TableCell component="th" scope="row" sx={{ fontWeight: 600, overflowWrap: 'anywhere', ...STICKY }}>
                {c.criterionDescription}
              </TableCell>
              {levels.map((i) => {
                const description = c.levelDescriptions[i];
                const range = rangeText(c, i);
                return (
                  <TableCell key={i} sx={{ overflowWrap: 'anywhere' }}>
                    {description === undefined ? (
                      <Box component="span" sx={{ color: 'text.disabled' }} aria-label="No level">
                        —
                      </Box>
                    ) : (
                      <>
                        <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap' }}>
                          {description}
                        </Typography>
                        {range && (
                          <Typography variant="caption" color="text.secondary" sx={{ fontWeight: 600 }}>
                            {range}
                          </Typography>
                        )}
                      </>
                    )}
                  </TableCell>
                );
              })}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
