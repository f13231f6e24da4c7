import Box from '@mui/material/Box';
import { highlightColors } from '../../lib/colors';

/** Props for {@link HighlightChip}. */
export interface HighlightChipProps {
  /** The highlighter's colour, e.g. purple-500. */
  color: string;
  label: string;
}

/**
 * A highlighter's name painted the way its highlights appear in a submission: shade 300 of its
 * hue behind, shade 900 for the text (spec §9).
 */
export function HighlightChip({ color, label }: HighlightChipProps) {
  const { background, text } = highlightColors(color);
  return (
    <Box
      component="span"
      sx={{
        display: 'inline-block',
        maxWidth: '100%',
        px: 1.25,
        py: 0.25,
        borderRadius: '6px',
        bgcolor: background,
        color: text,
        fontWeight: 600,
        fontSize: '0.875rem',
        lineHeight: 1.6,
        overflowWrap: 'anywhere',
      }}
    >
      {label}
    </Box>
  );
}
