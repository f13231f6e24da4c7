import Box from '@mui/material/Box';
import { highlightPaint } from '../../../../lib/highlight-paint';

/** Props of {@link HighlighterChip}. */
export interface HighlighterChipProps {
  /** The highlighter's colour, e.g. purple-500. */
  color: string;
  label: string;
}

/** A highlighter's name painted the way its highlights are (shade 300 behind, readable shade 900 text). */
export function HighlighterChip({ color, label }: HighlighterChipProps) {
  const paint = highlightPaint(color);
  return (
    <Box
      component="span"
      sx={{
        display: 'inline-block',
        maxWidth: '100%',
        px: 1,
        py: 0.125,
        borderRadius: '6px',
        bgcolor: paint.background,
        color: paint.text,
        fontWeight: 600,
        fontSize: '0.8125rem',
        lineHeight: 1.6,
        overflowWrap: 'anywhere',
      }}
    >
      {label}
    </Box>
  );
}
