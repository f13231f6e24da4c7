import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { useId, type ReactNode } from 'react';

/** Props of {@link Panel}. */
export interface PanelProps {
  title: string;
  /** A line under the title. */
  description?: ReactNode;
  /** Buttons at the top right. */
  action?: ReactNode;
  children: ReactNode;
}

/** A full-width card of the assignment page, named by its h2 title. */
export function Panel({ title, description, action, children }: PanelProps) {
  const headingId = useId();
  return (
    <Card component="section" aria-labelledby={headingId}>
      <CardContent sx={{ p: { xs: 2, sm: 3 }, '&:last-child': { pb: { xs: 2.5, sm: 3 } } }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, justifyContent: 'space-between', alignItems: 'flex-start', mb: 2 }}>
          <Box sx={{ minWidth: 0, flex: '1 1 280px' }}>
            <Typography id={headingId} variant="h2" sx={{ fontSize: '1.25rem' }}>
              {title}
            </Typography>
            {description && (
              <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                {description}
              </Typography>
            )}
          </Box>
          {action && <Box sx={{ flexShrink: 0 }}>{action}</Box>}
        </Box>
        {children}
      </CardContent>
    </Card>
  );
}
