import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { Highlighter } from '../../api/types';
import { HighlightChip } from './HighlightChip';

/** A feedback assignment's highlighters, read-only: each coloured chip with its description. */
export function HighlighterList({ highlights }: { highlights: Highlighter[] }) {
  if (highlights.length === 0) return <Typography color="text.secondary">No highlighters.</Typography>;
  return (
    <Box component="ul" aria-label="Highlighters" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1.5 }}>
      {highlights.map((h) => (
        <Box
          component="li"
          key={h.key}
          sx={{
            display: 'grid',
            gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: '220px minmax(0, 1fr)' },
            gap: { xs: 0.5, sm: 2 },
            alignItems: 'start',
          }}
        >
          <Box>
            <HighlightChip color={h.color} label={h.title} />
          </Box>
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap', pt: { sm: '3px' } }}>
            {h.description}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
