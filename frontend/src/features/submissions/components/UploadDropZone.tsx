import CloudUploadOutlined from '@mui/icons-material/CloudUploadOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useRef, useState, type DragEvent } from 'react';
import { ACCEPTED_TYPES_TEXT, SUBMISSION_ACCEPT } from '../../../lib/submission-files';

/** Props for {@link UploadDropZone}. */
export interface UploadDropZoneProps {
  onFiles: (files: File[]) => void;
  disabled?: boolean;
}

function hasFiles(event: DragEvent): boolean {
  return Array.from(event.dataTransfer?.types ?? []).includes('Files');
}

/**
 * Where a teacher drops files or picks them with the "Upload files" button (a real button, so
 * the keyboard reaches it). The picker offers the six submission types, several at once.
 */
export function UploadDropZone({ onFiles, disabled = false }: UploadDropZoneProps) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (disabled) return;
    const files = Array.from(event.dataTransfer?.files ?? []);
    if (files.length > 0) onFiles(files);
  };

  return (
    <Box
      aria-label="Drop files to upload"
      role="group"
      onDragEnter={(event) => {
        if (!hasFiles(event) || disabled) return;
        event.preventDefault();
        setOver(true);
      }}
      onDragOver={(event) => {
        if (!hasFiles(event) || disabled) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={onDrop}
      sx={{
        border: '2px dashed',
        borderColor: over ? 'primary.main' : 'divider',
        bgcolor: over ? 'rgba(23, 97, 107, 0.06)' : 'transparent',
        borderRadius: '12px',
        px: { xs: 2, sm: 3 },
        py: { xs: 2.5, sm: 3 },
        display: 'flex',
        flexDirection: { xs: 'column', sm: 'row' },
        alignItems: 'center',
        gap: 2,
        textAlign: { xs: 'center', sm: 'left' },
        transition: 'border-color 120ms, background-color 120ms',
      }}
    >
      <CloudUploadOutlined aria-hidden="true" sx={{ fontSize: 36, color: 'primary.main' }} />
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography sx={{ fontWeight: 600 }}>{over ? 'Drop to upload' : 'Drag students’ files here'}</Typography>
        <Typography variant="body2" color="text.secondary">
          {ACCEPTED_TYPES_TEXT} files, several at once.
        </Typography>
      </Box>
      <Button variant="contained" disabled={disabled} onClick={() => input.current?.click()} sx={{ flexShrink: 0 }}>
        Upload files
      </Button>
      <input
        ref={input}
        type="file"
        multiple
        accept={SUBMISSION_ACCEPT}
        hidden
        aria-label="Choose files to upload"
        data-testid="submission-file-input"
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          event.target.value = '';
          if (files.length > 0) onFiles(files);
        }}
      />
    </Box>
  );
}
