import ChevronLeftRounded from '@mui/icons-material/ChevronLeftRounded';
import ChevronRightRounded from '@mui/icons-material/ChevronRightRounded';
import DownloadRounded from '@mui/icons-material/DownloadRounded';
import ZoomInRounded from '@mui/icons-material/ZoomInRounded';
import ZoomOutRounded from '@mui/icons-material/ZoomOutRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import { Tooltip } from '../../../components/Tooltip';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import { downloadOriginal, type Original } from '../../../lib/original';
import { pageSourceLabel, type PageQuality } from '../../../lib/page-source';
import { useOriginalPage } from '../api/get-original';

/** The message on a page OCR read with low confidence. */
export const CHECK_PAGE_MESSAGE = 'Check this page against the original';

const ZOOMS = [0.75, 1, 1.5, 2, 3] as const;

/** Props for {@link OriginalPane}. */
export interface OriginalPaneProps {
  submissionId: string;
  /** The original, or undefined while it loads. */
  original: Original | undefined;
  /** Why it could not be loaded. */
  error?: string;
  /** The page shown (0-based) and its setter, when the caller controls it; else the pane keeps its own. */
  page?: number;
  onPageChange?: (page: number) => void;
  /** How each page's text was read and why it may be misread (the submission's pages), in page order. */
  quality?: PageQuality[];
}

function formatLabel(o: Original): string {
  if (o.format === 'docx') return 'Word file, shown as its pages';
  if (o.format === 'pptx') return 'PowerPoint file, shown as its slides';
  if (o.format === 'doc') return 'Word 97–2003 file, shown as its pages';
  if (o.format === 'ppt') return 'PowerPoint 97–2003 file, shown as its slides';
  if (o.format === 'odt') return 'OpenDocument text, shown as its pages';
  if (o.format === 'odp') return 'OpenDocument presentation, shown as its slides';
  if (o.format === 'rtf') return 'RTF document, shown as its pages';
  if (o.format === 'pdf') return 'PDF';
  if (o.format === 'odt' || o.format === 'rtf' || o.format === 'doc') return 'Document, shown as its pages';
  if (o.format === 'odp' || o.format === 'ppt') return 'Presentation, shown as its slides';
  if (o.format === 'tiff') return 'Scan';
  if (['png', 'jpeg', 'heic', 'webp', 'gif'].includes(o.format)) return 'Photo';
  return '';
}

/** The download button of the pane. */
function DownloadButton({ submissionId }: { submissionId: string }) {
  const { showToast } = useToast();
  const [busy, setBusy] = useState(false);
  return (
    <Button
      size="small"
      startIcon={<DownloadRounded />}
      disabled={busy}
      onClick={() => {
        setBusy(true);
        downloadOriginal(submissionId)
          .catch((error: unknown) => showToast({ type: 'error', message: errorMessage(error, "We couldn't download the file. Please try again.") }))
          .finally(() => setBusy(false));
      }}
    >
      Download original
    </Button>
  );
}

/** One page image at a zoom, scrolling inside the pane when larger than it. */
function PageImage({ submissionId, page, count, zoom }: { submissionId: string; page: number; count: number; zoom: number }) {
  const url = useOriginalPage(submissionId, page, true);
  if (url.error) {
    return <Alert severity="warning">{errorMessage(url.error, "We couldn't show this page. Please try again.")}</Alert>;
  }
  if (!url.data) {
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', minHeight: 240 }}>
        <CircularProgress size={28} aria-label="Loading the page" />
      </Box>
    );
  }
  return (
    <Box
      component="img"
      src={url.data}
      alt={`Page ${page + 1} of ${count} of the original`}
      sx={{ display: 'block', width: `${zoom * 100}%`, maxWidth: 'none', height: 'auto', bgcolor: 'common.white', boxShadow: 1 }}
    />
  );
}

/**
 * The student's original file beside its text: one page at a time with buttons to page and to zoom,
 * "Check this page against the original" on a page OCR was unsure of, and the file to download.
 * Word and PowerPoint files show the server's rendering of their pages.
 */
export function OriginalPane({ submissionId, original, error, page: shownPage, onPageChange, quality = [] }: OriginalPaneProps) {
  const headingId = useId();
  const [ownPage, setOwnPage] = useState(0);
  const page = shownPage ?? ownPage;
  const setPage = onPageChange ?? setOwnPage;
  const [zoomIndex, setZoomIndex] = useState(1);
  const zoom = ZOOMS[zoomIndex];

  let body;
  if (error) {
    body = <Alert severity="warning">{error}</Alert>;
  } else if (!original) {
    body = (
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', py: 4, justifyContent: 'center' }} role="status">
        <CircularProgress size={24} />
        <Typography color="text.secondary">Preparing the original…</Typography>
      </Stack>
    );
  } else if (original.kind !== 'pages' || original.pageCount === 0) {
    body = <Alert severity="info">{original.problem || 'This file has no pages to show.'}</Alert>;
  } else {
    const count = original.pageCount;
    const current = Math.min(page, count - 1);
    const check = original.pages[current]?.check ?? false;
    const info = quality[current];
    const source = info ? pageSourceLabel(info) : '';
    body = (
      <Stack spacing={1}>
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap' }}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
            <IconButton aria-label="Previous page" disabled={current === 0} onClick={() => setPage(current - 1)} size="small">
              <ChevronLeftRounded />
            </IconButton>
            <Typography variant="body2" sx={{ fontVariantNumeric: 'tabular-nums', minWidth: 92, textAlign: 'center' }} aria-live="polite">
              Page {current + 1} of {count}
            </Typography>
            <IconButton aria-label="Next page" disabled={current >= count - 1} onClick={() => setPage(current + 1)} size="small">
              <ChevronRightRounded />
            </IconButton>
          </Box>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
            <Tooltip title="Zoom out">
              <span>
                <IconButton aria-label="Zoom out" disabled={zoomIndex === 0} onClick={() => setZoomIndex(zoomIndex - 1)} size="small">
                  <ZoomOutRounded />
                </IconButton>
              </span>
            </Tooltip>
            <Typography variant="body2" sx={{ fontVariantNumeric: 'tabular-nums', minWidth: 44, textAlign: 'center' }}>
              {Math.round(zoom * 100)}%
            </Typography>
            <Tooltip title="Zoom in">
              <span>
                <IconButton aria-label="Zoom in" disabled={zoomIndex === ZOOMS.length - 1} onClick={() => setZoomIndex(zoomIndex + 1)} size="small">
                  <ZoomInRounded />
                </IconButton>
              </span>
            </Tooltip>
          </Box>
        </Box>
        {source && (
          <Typography variant="body2" color="text.secondary">
            Text read from: {source}
          </Typography>
        )}
        {info?.warning ? (
          <Alert severity="warning" sx={{ py: 0 }}>
            {info.warning}
          </Alert>
        ) : (
          check && (
            <Alert severity="warning" sx={{ py: 0 }}>
              {CHECK_PAGE_MESSAGE}: the text was read from this page with low confidence.
            </Alert>
          )
        )}
        <Box
          sx={{ overflow: 'auto', bgcolor: 'grey.100', borderRadius: 1, p: 1, maxHeight: { lg: 'calc(100dvh - 260px)' }, minHeight: 200 }}
          tabIndex={0}
          aria-label="Original page"
          role="region"
        >
          <PageImage submissionId={submissionId} page={current} count={count} zoom={zoom} />
        </Box>
      </Stack>
    );
  }

  const label = original ? formatLabel(original) : '';
  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby={headingId}
      sx={{ p: { xs: 1.5, sm: 2 }, position: { lg: 'sticky' }, top: { lg: 16 }, minWidth: 0 }}
    >
      <Box sx={{ display: 'flex', alignItems: 'baseline', justifyContent: 'space-between', gap: 1, mb: 1, flexWrap: 'wrap' }}>
        <Box sx={{ minWidth: 0 }}>
          <Typography id={headingId} variant="h6" component="h3">
            Original
          </Typography>
          {label && (
            <Typography variant="body2" color="text.secondary">
              {label}
              {original?.converted ? ' (may differ slightly from the student’s screen)' : ''}
            </Typography>
          )}
        </Box>
        {original && original.fileName !== '' && <DownloadButton submissionId={submissionId} />}
      </Box>
      {body}
    </Paper>
  );
}
