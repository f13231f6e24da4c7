import Box from '@mui/material/Box';
import type { ReactNode } from 'react';

/** Props for {@link DetailList}. */
export interface DetailListProps {
  items: { term: string; value: ReactNode }[];
}

/** Terms and values side by side (a description list). */
export function DetailList({ items }: DetailListProps) {
  return (
    <Box
      component="dl"
      sx={{
        m: 0,
        display: 'grid',
        gridTemplateColumns: { xs: 'minmax(96px, max-content) minmax(0, 1fr)', sm: 'minmax(120px, max-content) minmax(0, 1fr)' },
        columnGap: 2,
        alignItems: 'baseline',
        rowGap: 1.25,
        '& dt': { color: 'text.secondary', fontSize: '0.875rem', fontWeight: 500 },
        '& dd': { m: 0, overflowWrap: 'anywhere' },
      }}
    >
      {items.map((item) => (
        <Box key={item.term} sx={{ display: 'contents' }}>
          <dt>{item.term}</dt>
          <dd>{item.value}</dd>
        </Box>
      ))}
    </Box>
  );
}
