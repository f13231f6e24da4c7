import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Typography from '@mui/material/Typography';
import { useId, type ReactElement, type ReactNode } from 'react';

/** Props for {@link CatalogCard}. */
export interface CatalogCardProps {
  icon: ReactElement;
  title: string;
  description: string;
  /** The card's action: a "Start" link or button whose accessible name includes the title. */
  action: ReactNode;
}

/** One tool or workflow of the catalogue: icon, title, description and its action at the bottom. */
export function CatalogCard({ icon, title, description, action }: CatalogCardProps) {
  const titleId = useId();
  return (
    <Card
      component="article"
      aria-labelledby={titleId}
      sx={{ height: '100%', display: 'flex', flexDirection: 'column', gap: 1.5, p: 2.5, minWidth: 0 }}
    >
      <Box
        aria-hidden="true"
        sx={{
          width: 40,
          height: 40,
          borderRadius: '10px',
          display: 'grid',
          placeItems: 'center',
          bgcolor: 'rgba(23, 97, 107, 0.08)',
          color: 'primary.main',
        }}
      >
        {icon}
      </Box>
      <Typography id={titleId} variant="h3" sx={{ fontSize: '1.125rem', overflowWrap: 'anywhere' }}>
        {title}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ flex: 1, overflowWrap: 'anywhere' }}>
        {description}
      </Typography>
      <Box>{action}</Box>
    </Card>
  );
}
