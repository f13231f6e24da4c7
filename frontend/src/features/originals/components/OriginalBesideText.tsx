import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { useRef, useState, type ReactNode } from 'react';
import { errorMessage } from '../../../lib/api-client';
import type { PageQuality } from '../../../lib/page-source';
import { useOriginal } from '../api/get-original';
import { OriginalPane } from './OriginalPane';

/** Props for {@link OriginalBesideText}. */
export interface OriginalBesideTextProps {
  /**
   * The submission: its id, its file's location ('' for a CSV row, which has no original) and its
   * pages: how each was read and why it may be misread.
   */
  submission: { _id: string; location: string; pages?: PageQuality[] };
  /** The page (from 1) to open the original at, as a link from the submissions table asks. */
  initialPage?: number;
  /** The text and its review. */
  children: ReactNode;
}

/**
 * The pages whose text may be misread, each with its reason and, when the original is shown, a button
 * that opens it at that page.
 */
function MisreadNotice({ quality, onShow }: { quality: PageQuality[]; onShow?: (page: number) => void }) {
  const doubtful = quality.flatMap((p, i) => (p.warning ? [{ index: i, warning: p.warning }] : []));
  if (doubtful.length === 0) return null;
  return (
    <Alert severity="warning" sx={{ mb: 2 }} aria-label="Text that may be misread">
      <Stack spacing={0.75}>
        {doubtful.map(({ index, warning }) => (
          <Box key={index} sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
            <span>{warning}.</span>
            {onShow && (
              <Button size="small" variant="outlined" color="warning" onClick={() => onShow(index)} sx={{ py: 0 }}>
                Show page {index + 1} of the original
              </Button>
            )}
          </Box>
        ))}
      </Stack>
    </Alert>
  );
}

/**
 * The review with the student's original beside it: side by side on a wide screen (1200 px and up);
 * on a narrower one a toggle, "Original / Text", shows one at a time (the text first; the other stays
 * mounted, so the review's keys keep working). A text file, whose text is its original, and a CSV row
 * get the review alone.
 */
export function OriginalBesideText({ submission, initialPage, children }: OriginalBesideTextProps) {
  const hasFile = submission.location !== '';
  const original = useOriginal(submission._id, hasFile);
  const start = initialPage && initialPage > 0 ? initialPage - 1 : null;
  const [view, setView] = useState<'original' | 'text'>(start === null ? 'text' : 'original');
  const [page, setPage] = useState(start ?? 0);
  const paneRef = useRef<HTMLDivElement>(null);
  const quality = submission.pages ?? [];
  const o = original.data;
  const show = hasFile && (!o || o.kind === 'pages' || (o.kind === 'none' && o.fileName !== ''));
  if (!show) {
    return (
      <>
        <MisreadNotice quality={quality} />
        {children}
      </>
    );
  }

  const showPage = (index: number) => {
    setPage(index);
    setView('original');
    paneRef.current?.scrollIntoView?.({ block: 'nearest' });
    paneRef.current?.querySelector<HTMLElement>('[aria-label="Original page"]')?.focus({ preventScroll: true });
  };

  return (
    <Box>
      <MisreadNotice quality={quality} onShow={o?.kind === 'pages' ? showPage : undefined} />
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
        <Box ref={paneRef} sx={{ display: { xs: view === 'original' ? 'block' : 'none', lg: 'block' }, minWidth: 0, alignSelf: 'stretch' }}>
          <OriginalPane
            submissionId={submission._id}
            original={o}
            page={page}
            onPageChange={setPage}
            quality={quality}
            error={original.error ? errorMessage(original.error, "We couldn't show the original. Please try again.") : undefined}
          />
        </Box>
        <Box sx={{ display: { xs: view === 'text' ? 'block' : 'none', lg: 'block' }, minWidth: 0 }}>{children}</Box>
      </Box>
    </Box>
  );
}
