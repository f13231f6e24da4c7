import CloseRounded from '@mui/icons-material/CloseRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import { ACCEPTED_TYPES_TEXT } from '../../../lib/submission-files';
import type { CopiedFile, RefusedFile } from '../hooks/use-file-upload';

/** The notices' close button. */
function CloseButton({ onClose }: { onClose: () => void }) {
  return (
    <IconButton aria-label="Close" color="inherit" size="small" onClick={onClose}>
      <CloseRounded fontSize="small" />
    </IconButton>
  );
}

/** Files an upload refused for their type. */
export function RefusedAlert({ refused, onClose }: { refused: RefusedFile[]; onClose: () => void }) {
  if (refused.length === 0) return null;
  const names = refused.map((f) => f.name).join(', ');
  return (
    <Alert
      severity="warning"
      action={<CloseButton onClose={onClose} />}
      sx={{ overflowWrap: 'anywhere' }}
    >
      {refused.length === 1 ? `${names} can't be uploaded` : `${refused.length} files can't be uploaded (${names})`}: only{' '}
      {ACCEPTED_TYPES_TEXT} files are accepted.
    </Alert>
  );
}

/**
 * Files set aside, with "Add them anyway": those whose content is already a submission ("Already
 * uploaded: …"), and those whose content is an earlier file's of the same batch ("Duplicate in this
 * upload: S13 Ava-copy.tif (same as S1 Ava.tif). It was skipped.").
 */
export function DuplicatesAlert({
  files,
  copies,
  onAdd,
  onClose,
  disabled,
}: {
  files: File[];
  copies: CopiedFile[];
  onAdd: () => void;
  onClose: () => void;
  disabled: boolean;
}) {
  const count = files.length + copies.length;
  if (count === 0) return null;
  const skipped = (n: number) => (n === 1 ? 'It was skipped.' : 'They were skipped.');
  return (
    <Alert
      severity="info"
      action={<CloseButton onClose={onClose} />}
      sx={{ overflowWrap: 'anywhere' }}
    >
      {files.length > 0 && (
        <Box component="span" sx={{ display: 'block' }}>
          Already uploaded: {files.map((f) => f.name).join(', ')}. {skipped(files.length)}
        </Box>
      )}
      {copies.length > 0 && (
        <Box component="span" sx={{ display: 'block' }}>
          {copies.length === 1 ? 'Duplicate' : 'Duplicates'} in this upload: {copies.map((c) => `${c.file.name} (same as ${c.sameAs})`).join(', ')}.{' '}
          {skipped(copies.length)}
        </Box>
      )}
      <Box sx={{ mt: 0.5 }}>
        <Button color="inherit" size="small" variant="outlined" onClick={onAdd} disabled={disabled} sx={{ ml: -0.5 }}>
          {count === 1 ? 'Add it anyway' : 'Add them anyway'}
        </Button>
      </Box>
    </Alert>
  );
}
