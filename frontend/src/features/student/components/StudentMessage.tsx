import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** Props for {@link StudentMessage}. */
export interface StudentMessageProps {
  title: string;
  description?: ReactNode;
  /** An icon above the title. */
  icon?: ReactNode;
  /** A way on, e.g. a link. */
  action?: ReactNode;
}

/** A centred message on a student page: a link that does not work, a thank-you, a missing result. */
export function StudentMessage({ title, description, icon, action }: StudentMessageProps) {
  return (
    <Box sx={{ display: 'grid', placeItems: 'center', py: { xs: 4, sm: 8 } }}>
      <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', maxWidth: 480 }}>
        {icon}
        <Typography variant="h1" sx={{ fontSize: { xs: '1.5rem', sm: '1.75rem' } }}>
          {title}
        </Typography>
        {description && <Typography color="text.secondary">{description}</Typography>}
        {action && <Box sx={{ pt: 1 }}>{action}</Box>}
      </Stack>
    </Box>
  );
}
