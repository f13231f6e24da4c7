import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** Props for {@link Wordmark}. */
export interface WordmarkProps {
  /** Height of the logo mark in pixels; the name scales with it. */
  size?: number;
  /** Render the name in white (for dark backgrounds). */
  inverse?: boolean;
  /** Element for the name: `h1` where the brand is the page's main heading, `span` elsewhere. */
  component?: 'span' | 'h1';
}

/** Markwell's logo mark and name. */
export function Wordmark({ size = 28, inverse = false, component = 'span' }: WordmarkProps) {
  return (
    <Box sx={{ display: 'inline-flex', alignItems: 'center', gap: size / 28 }}>
      <Box component="svg" viewBox="0 0 32 32" aria-hidden="true" sx={{ width: size, height: size, flexShrink: 0 }}>
        <rect width="32" height="32" rx="8" fill="#17616b" />
        <path d="M8 22V10.5l5 6.5 5-6.5V22" fill="none" stroke="#fff" strokeWidth="2.6" strokeLinecap="round" strokeLinejoin="round" />
        <path d="M19.5 18.5l2.5 2.5 4.5-6" fill="none" stroke="#f2c14e" strokeWidth="2.6" strokeLinecap="round" strokeLinejoin="round" />
      </Box>
      <Typography
        component={component}
        sx={{
          m: 0,
          fontFamily: 'Lexend, Inter, sans-serif',
          fontWeight: 600,
          fontSize: size * 0.72,
          letterSpacing: '-0.01em',
          lineHeight: 1,
          color: inverse ? 'common.white' : 'text.primary',
        }}
      >
        Markwell
      </Typography>
    </Box>
  );
}
