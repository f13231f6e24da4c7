import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** Props for {@link PageHeader}. */
export interface PageHeaderProps {
  /** The page's heading (h1). */
  title: ReactNode;
  /** A line under the heading. */
  subtitle: ReactNode;
  /** The page's main actions, beside the heading (below it on narrow screens). */
  actions?: ReactNode;
}

/** The top of a list page: heading and a line under it on the left, the page's actions on the right. */
export function PageHeader({ title, subtitle, actions }: PageHeaderProps) {
  return (
    <Box
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'flex-end',
        justifyContent: 'space-between',
        gap: 2,
        mb: 3,
      }}
    >
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="h1">{title}</Typography>
        <Typography color="text.secondary" sx={{ mt: 0.5 }}>
          {subtitle}
        </Typography>
      </Box>
      {actions}
    </Box>
  );
}
