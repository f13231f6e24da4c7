import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { keyframes } from '@mui/material/styles';

const fadeIn = keyframes`
  from { opacity: 0; }
  to { opacity: 1; }
`;

/** Props for {@link PageSpinner}. */
export interface PageSpinnerProps {
  /** Accessible name of the progress indicator. */
  label?: string;
  /** Fill the whole viewport (while the session loads) rather than the content area. */
  fullPage?: boolean;
}

/**
 * A calm, centred spinner. It fades in after a short delay, so quick loads show nothing at all
 * instead of a flash.
 */
export function PageSpinner({ label = 'Loading', fullPage = false }: PageSpinnerProps) {
  return (
    <Box
      sx={{
        minHeight: fullPage ? '100dvh' : 240,
        display: 'grid',
        placeItems: 'center',
        opacity: 0,
        animation: `${fadeIn} 300ms ease-out 300ms forwards`,
        '@media (prefers-reduced-motion: reduce)': { animationDuration: '1ms' },
      }}
    >
      <CircularProgress aria-label={label} size={32} thickness={4} />
    </Box>
  );
}
