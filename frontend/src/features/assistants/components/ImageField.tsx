import DeleteOutlineRounded from '@mui/icons-material/DeleteOutlineRounded';
import ImageOutlined from '@mui/icons-material/ImageOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import { UploadError } from '../../../lib/upload-file';
import { IMAGE_TYPES, uploadAssistantImage } from '../api/upload-image';
import { AssistantAvatar } from './AssistantAvatar';

/** Props of {@link ImageField}. */
export interface ImageFieldProps {
  /** The picture's file URL, or '' for none. */
  value: string;
  onChange: (imageURL: string) => void;
  /** The assistant's title, for the letter shown when there is no picture. */
  title: string;
  /** Shown only: no upload or remove. */
  readOnly?: boolean;
  /** Called with true while an upload runs and false when it ends. */
  onBusyChange?: (busy: boolean) => void;
}

/** The assistant's picture: a preview, an upload button and a remove button. */
export function ImageField({ value, onChange, title, readOnly = false, onBusyChange }: ImageFieldProps) {
  const input = useRef<HTMLInputElement>(null);
  const abort = useRef<AbortController | null>(null);
  const [uploading, setUploading] = useState(false);
  const { showToast } = useToast();
  useEffect(() => () => abort.current?.abort(), []);

  const upload = async (file: File) => {
    if (!IMAGE_TYPES.includes(file.type)) {
      showToast({ type: 'error', message: 'Choose a PNG, JPEG, GIF or WebP image.' });
      return;
    }
    const controller = new AbortController();
    abort.current = controller;
    setUploading(true);
    onBusyChange?.(true);
    try {
      onChange(await uploadAssistantImage(file, controller.signal));
    } catch (error) {
      if (controller.signal.aborted) return;
      const message = error instanceof UploadError ? error.message : errorMessage(error, "Couldn't upload the image. Please try again.");
      showToast({ type: 'error', message });
    } finally {
      if (!controller.signal.aborted) {
        setUploading(false);
        onBusyChange?.(false);
      }
    }
  };

  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
      {value ? (
        <Box
          component="img"
          src={value}
          alt="Assistant picture preview"
          sx={{ width: 72, height: 72, borderRadius: '12px', objectFit: 'cover', border: 1, borderColor: 'divider' }}
        />
      ) : (
        <AssistantAvatar title={title || '?'} size={72} />
      )}
      {!readOnly && (
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 0.5, alignItems: 'flex-start' }}>
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            <Button variant="outlined" size="small" startIcon={<ImageOutlined />} loading={uploading} onClick={() => input.current?.click()}>
              {value ? 'Change image' : 'Upload image'}
            </Button>
            {value && (
              <Button size="small" color="inherit" startIcon={<DeleteOutlineRounded />} disabled={uploading} onClick={() => onChange('')}>
                Remove image
              </Button>
            )}
          </Box>
          <Typography variant="body2" color="text.secondary" role="status">
            {uploading ? 'Uploading the image…' : 'Optional. PNG, JPEG, GIF or WebP; without one the card shows a letter.'}
          </Typography>
        </Box>
      )}
      <input
        ref={input}
        type="file"
        accept={IMAGE_TYPES.join(',')}
        hidden
        aria-label="Choose an image"
        data-testid="assistant-image-input"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) void upload(file);
        }}
      />
    </Box>
  );
}
