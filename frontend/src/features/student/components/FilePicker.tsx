import InsertDriveFileOutlined from '@mui/icons-material/InsertDriveFileOutlined';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import Typography from '@mui/material/Typography';
import { useId, useRef, useState, type DragEvent, type Ref } from 'react';
import { ACCEPTED_TYPES_TEXT, formatFileSize, SUBMISSION_ACCEPT } from '../../../lib/submission-files';

/** Props for {@link FilePicker}. */
export interface FilePickerProps {
  file: File | null;
  /** Called with the file the student picked or dropped (not yet checked). */
  onSelect: (file: File) => void;
  error?: string;
  disabled?: boolean;
  /** The "Choose a file" button, so the form can focus it when no file is chosen. */
  buttonRef?: Ref<HTMLButtonElement>;
}

/**
 * Picks the one file a student submits: a "Choose a file" button (or a drop on the box), then
 * the file's name and size with a way to change it.
 */
export function FilePicker({ file, onSelect, error, disabled = false, buttonRef }: FilePickerProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const labelId = useId();
  const hintId = useId();
  const errorId = useId();
  const [dragging, setDragging] = useState(false);

  const pick = (files: FileList | null) => {
    const picked = files?.[0];
    if (picked) onSelect(picked);
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (!disabled) pick(event.dataTransfer.files);
  };

  const describedBy = [hintId, error ? errorId : ''].filter(Boolean).join(' ');

  return (
    <Box role="group" aria-labelledby={labelId}>
      <Typography id={labelId} component="span" sx={{ display: 'block', fontWeight: 500, mb: 1 }}>
        Your work
      </Typography>
      <Box
        onDragOver={(event) => {
          event.preventDefault();
          if (!disabled) setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        sx={{
          border: 1.5,
          borderStyle: 'dashed',
          borderColor: error ? 'error.main' : dragging ? 'primary.main' : 'divider',
          bgcolor: dragging ? 'action.hover' : 'background.default',
          borderRadius: 2.5,
          p: { xs: 2, sm: 2.5 },
          display: 'flex',
          alignItems: 'center',
          gap: 2,
          flexWrap: 'wrap',
        }}
      >
        {file ? (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flex: '1 1 200px', minWidth: 0 }}>
            <InsertDriveFileOutlined color="primary" aria-hidden="true" />
            <Box sx={{ minWidth: 0, flex: 1 }}>
              {/* A long name ends in "…" on one line rather than breaking mid-word; the whole name is its tooltip. */}
              <Typography title={file.name} noWrap sx={{ fontWeight: 500 }}>
                {file.name}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {formatFileSize(file.size)}
              </Typography>
            </Box>
          </Box>
        ) : (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flex: '1 1 200px', minWidth: 0 }}>
            <UploadFileOutlined color="action" aria-hidden="true" />
            <Typography color="text.secondary">No file chosen yet</Typography>
          </Box>
        )}
        <Button
          ref={buttonRef}
          variant="outlined"
          onClick={() => inputRef.current?.click()}
          disabled={disabled}
          aria-describedby={describedBy}
        >
          {file ? 'Choose another file' : 'Choose a file'}
        </Button>
        <input
          ref={inputRef}
          type="file"
          accept={SUBMISSION_ACCEPT}
          hidden
          aria-label="File to submit"
          disabled={disabled}
          onChange={(event) => {
            pick(event.target.files);
            // Let the same file be picked again after a change of mind.
            event.target.value = '';
          }}
        />
      </Box>
      <FormHelperText id={hintId}>{ACCEPTED_TYPES_TEXT}. One file.</FormHelperText>
      {error && (
        <FormHelperText id={errorId} error>
          {error}
        </FormHelperText>
      )}
    </Box>
  );
}
