import LibraryBooksOutlined from '@mui/icons-material/LibraryBooksOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { EmptyState } from '../../../components/EmptyState';

/** A titled part of the library (Assignments, Rubrics) with its item count. */
export function LibrarySection({ title, count, children }: { title: string; count: number; children: ReactNode }) {
  return (
    <Box component="section" aria-labelledby={`library-${title}`} sx={{ mb: 4 }}>
      <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1, mb: 1.5 }}>
        <Typography id={`library-${title}`} variant="h2" sx={{ fontSize: '1.25rem' }}>
          {title}
        </Typography>
        <Typography variant="body2" color="text.secondary" aria-hidden="true">
          {count}
        </Typography>
      </Box>
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>{children}</Box>
    </Box>
  );
}

/** A library with nothing in it yet. */
export function EmptyLibrary() {
  return (
    <EmptyState icon={<LibraryBooksOutlined />} gap={1.5}>
      <Typography sx={{ maxWidth: 420, fontWeight: 600 }}>Your team&apos;s assignments and rubrics will appear here.</Typography>
      <Typography color="text.secondary" sx={{ maxWidth: 440 }}>
        Start with New assignment, or build a rubric to grade against.
      </Typography>
    </EmptyState>
  );
}

/** A search or filter that matches nothing, with a way to clear it. */
export function NoMatches({ search, onClear }: { search: string; onClear: () => void }) {
  return (
    <Paper variant="outlined" sx={{ borderRadius: '12px', px: 3, py: 5, textAlign: 'center' }}>
      <Typography sx={{ fontWeight: 600, mb: 0.5, overflowWrap: 'anywhere' }}>
        {search.trim() ? `Nothing matches “${search.trim()}”.` : 'Nothing of this type yet.'}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Try another name or type.
      </Typography>
      <Button variant="outlined" onClick={onClear}>
        Clear search and filters
      </Button>
    </Paper>
  );
}

/** The library's shape while it loads. */
export function LibrarySkeleton() {
  return (
    <Box aria-busy="true" aria-label="Loading library" role="status">
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mb: 3 }}>
        <Skeleton variant="rounded" height={40} sx={{ flex: { xs: '1 1 100%', md: '0 1 320px' } }} />
        <Box sx={{ display: 'flex', gap: 1 }}>
          {[48, 64, 80].map((w) => (
            <Skeleton key={w} variant="rounded" width={w} height={32} sx={{ borderRadius: 4 }} />
          ))}
        </Box>
      </Box>
      <Skeleton width={140} height={32} sx={{ mb: 1.5 }} />
      <Skeleton variant="rounded" height={56} sx={{ mb: 1.5, borderRadius: '12px' }} />
      <Paper variant="outlined" sx={{ borderRadius: '12px', px: 2, py: 0.5 }}>
        {[0, 1, 2].map((i) => (
          <Box key={i} sx={{ display: 'flex', alignItems: 'center', gap: 2, py: 1.5 }}>
            <Skeleton variant="rounded" width={36} height={36} />
            <Box sx={{ flex: 1 }}>
              <Skeleton width="45%" />
              <Skeleton width="25%" />
            </Box>
          </Box>
        ))}
      </Paper>
    </Box>
  );
}
