import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import type { ReactNode } from 'react';

/** Props for {@link EmptyState}. */
export interface EmptyStateProps {
  /** The icon in the circle at the top. */
  icon: ReactNode;
  /** What goes under the icon: a heading or a line, an explanation, perhaps a button. */
  children: ReactNode;
  /** Space between the lines under the icon (theme spacing units); the icon keeps 2 units above them. */
  gap?: number;
}

/** A list with nothing in it yet: an icon in a circle over a few centred lines, in an outlined card. */
export function EmptyState({ icon, children, gap = 2 }: EmptyStateProps) {
  return (
    <Paper
      variant="outlined"
      sx={{
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        textAlign: 'center',
        gap,
        px: { xs: 3, sm: 6 },
        py: { xs: 6, sm: 8 },
        borderRadius: '12px',
      }}
    >
      <Box
        aria-hidden="true"
        sx={{
          width: 56,
          height: 56,
          borderRadius: '50%',
          display: 'grid',
          placeItems: 'center',
          bgcolor: 'rgba(23, 97, 107, 0.08)',
          color: 'primary.main',
          mb: Math.max(0, 2 - gap),
        }}
      >
        {icon}
      </Box>
      {children}
    </Paper>
  );
}
