import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Wordmark } from '../../components/Wordmark';

/** Props for {@link CenteredMessage}. */
export interface CenteredMessageProps {
  title: string;
  description: string;
  /** The way out, usually a button. */
  action: ReactNode;
}

/** A full-page centred message with the wordmark, used by the 404 and error pages. */
export function CenteredMessage({ title, description, action }: CenteredMessageProps) {
  return (
    <Box component="main" sx={{ minHeight: '100dvh', display: 'grid', placeItems: 'center', px: 2, py: 6 }}>
      <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', maxWidth: 440 }}>
        <Wordmark size={32} />
        <Typography variant="h1" sx={{ pt: 2 }}>
          {title}
        </Typography>
        <Typography color="text.secondary">{description}</Typography>
        <Box sx={{ pt: 1 }}>{action}</Box>
      </Stack>
    </Box>
  );
}
