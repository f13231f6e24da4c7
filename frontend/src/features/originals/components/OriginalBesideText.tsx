import Box from '@mui/material/Box';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { useState, type ReactNode } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { useOriginal } from '../api/get-original';
import { OriginalPane } from './OriginalPane';

/** Props for {@link OriginalBesideText}. */
export interface OriginalBesideTextProps {
  /** The submission: its id, and its file's location ('' for a CSV row, which has no original). */
  submission: { _id: string; location: string };
  /** The text and its review. */
  children: ReactNode;
}

/**
 * The review with the student's original beside it: side by side on a wide screen (1200 px and up);
 * on a narrower one a toggle, "Original / Text", shows one at a time (the text first; the other stays
 * mounted, so the review's keys keep working). A text file, whose text is its original, and a CSV row
 * get the review alone.
 */
export function OriginalBesideText({ submission, children }: OriginalBesideTextProps) {
  const hasFile = submission.location !== '';
  const original = useOriginal(submission._id, hasFile);
  const [view, setView] = useState<'original' | 'text'>('text');
  const o = original.data;
  const show = hasFile && (!o || o.kind === 'pages' || (o.kind === 'none' && o.fileName !== ''));
  if (!show) return <>{children}</>;

  return (
    <Box>
      <ToggleButtonGroup
        exclusive
        size="small"
        value={view}
        onChange={(_, v: 'original' | 'text' | null) => v && setView(v)}
        aria-label="Show the original or the text"
        sx={{ display: { xs: 'flex', lg: 'none' }, mb: 1.5, '& .MuiToggleButton-root': { flex: 1, textTransform: 'none', fontWeight: 600 } }}
      >
        <ToggleButton value="original">Original</ToggleButton>
        <ToggleButton value="text">Text</ToggleButton>
      </ToggleButtonGroup>
      <Box sx={{ display: 'grid', gap: 2, alignItems: 'start', gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(0, 5fr) minmax(0, 7fr)' } }}>
        <Box sx={{ display: { xs: view === 'original' ? 'block' : 'none', lg: 'block' }, minWidth: 0, alignSelf: 'stretch' }}>
          <OriginalPane
            submissionId={submission._id}
            original={o}
            error={original.error ? errorMessage(original.error, "We couldn't show the original. Please try again.") : undefined}
          />
        </Box>
        <Box sx={{ display: { xs: view === 'text' ? 'block' : 'none', lg: 'block' }, minWidth: 0 }}>{children}</Box>
      </Box>
    </Box>
  );
}
