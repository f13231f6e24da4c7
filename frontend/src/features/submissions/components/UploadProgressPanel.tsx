import CheckCircleRounded from '@mui/icons-material/CheckCircleRounded';
import ErrorOutlineRounded from '@mui/icons-material/ErrorOutlineRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { memo, useId } from 'react';
import type { UploadItem, UploadProgress } from '../hooks/upload-progress';

function ItemState({ item }: { item: UploadItem }) {
  switch (item.status) {
    case 'waiting':
      return <Typography variant="body2" color="text.secondary">Waiting…</Typography>;
    case 'uploading':
      return <Typography variant="body2" color="text.secondary">Uploading… {Math.round(item.progress * 100)}%</Typography>;
    case 'uploaded':
      return (
        <Typography variant="body2" color="success.main" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
          <CheckCircleRounded aria-hidden="true" sx={{ fontSize: 16 }} /> Uploaded
        </Typography>
      );
    case 'failed':
      return (
        <Typography variant="body2" color="error" sx={{ display: 'inline-flex', alignItems: 'flex-start', gap: 0.5 }}>
          <ErrorOutlineRounded aria-hidden="true" sx={{ fontSize: 16, mt: '3px' }} /> Failed: {item.error}
        </Typography>
      );
  }
}

/** One file's row; memoised, so a batch of hundreds redraws only the rows that changed. */
const ItemRow = memo(function ItemRow({ item }: { item: UploadItem }) {
  const nameId = useId();
  return (
    <Box component="li" aria-labelledby={nameId} sx={{ py: 1, borderTop: '1px solid', borderColor: 'divider' }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', gap: 1 }}>
        <Typography id={nameId} title={item.name} noWrap sx={{ fontWeight: 500, minWidth: 0, flex: '1 1 12ch', maxWidth: '100%' }}>
          {item.name}
        </Typography>
        <ItemState item={item} />
      </Box>
      {(item.status === 'uploading' || item.status === 'waiting') && (
        <LinearProgress
          variant="determinate"
          value={Math.round(item.progress * 100)}
          aria-label={`Upload of ${item.name}`}
          sx={{ mt: 0.75, height: 4, borderRadius: 2 }}
        />
      )}
    </Box>
  );
});

/** Props for {@link UploadProgressPanel}. */
export interface UploadProgressPanelProps {
  progress: UploadProgress;
  onRetrySave: () => void;
  onDismiss: () => void;
}

/**
 * An upload batch: the overall progress ("3 of 5 files") and one row per file with its own
 * progress and state; a failed file says why. Once done it can be dismissed.
 */
export function UploadProgressPanel({ progress, onRetrySave, onDismiss }: UploadProgressPanelProps) {
  const { phase, total, completed, items, saveError } = progress;
  if (phase === 'idle') return null;
  const failed = items.filter((i) => i.status === 'failed').length;
  const label = `${completed} of ${total} ${total === 1 ? 'file' : 'files'}`;
  const heading =
    phase === 'uploading'
      ? 'Uploading'
      : phase === 'saving'
        ? 'Adding the files to this assignment…'
        : phase === 'save-failed'
          ? 'Uploaded, but not added'
          : failed === 0
            ? 'Upload complete'
            : `${total - failed} of ${total} ${total === 1 ? 'file' : 'files'} uploaded`;

  return (
    <Box component="section" aria-label="Upload progress" sx={{ border: '1px solid', borderColor: 'divider', borderRadius: '12px', p: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, mb: 1 }}>
        <Typography sx={{ fontWeight: 600 }} aria-live="polite">
          {heading}
        </Typography>
        {/* Once done, the heading says how it went: "2 of 2 files" beside "0 of 2 files uploaded" read as a contradiction. */}
        {(phase === 'uploading' || phase === 'saving') && (
          <Typography variant="body2" color="text.secondary">
            {label}
          </Typography>
        )}
      </Box>
      <LinearProgress
        variant={phase === 'saving' ? 'indeterminate' : 'determinate'}
        value={total ? Math.round((completed / total) * 100) : 0}
        aria-label="Upload progress"
        aria-valuetext={label}
        sx={{ height: 6, borderRadius: 3, mb: 1.5 }}
      />
      {saveError && (
        <Alert
          severity="error"
          sx={{ mb: 1.5 }}
          action={
            <Button color="inherit" size="small" onClick={onRetrySave}>
              Try again
            </Button>
          }
        >
          {saveError}
        </Alert>
      )}
      <Box component="ul" aria-label="Files" sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {items.map((item) => (
          <ItemRow key={item.id} item={item} />
        ))}
      </Box>
      {(phase === 'done' || phase === 'save-failed') && (
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 1 }}>
          <Button size="small" onClick={onDismiss}>
            Dismiss
          </Button>
        </Box>
      )}
    </Box>
  );
}
