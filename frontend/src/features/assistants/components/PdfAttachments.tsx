import AttachFileRounded from '@mui/icons-material/AttachFileRounded';
import CloseRounded from '@mui/icons-material/CloseRounded';
import PictureAsPdfOutlined from '@mui/icons-material/PictureAsPdfOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { useEffect, useId, useRef, useState } from 'react';
import { useToast } from '../../../components/toast';
import { PDF_TYPE, readPdfs } from '../api/read-pdfs';
import { choosePdfs, MAX_ASSISTANT_FILES } from '../lib/pdf-slots';
import type { AssistantFile } from '../types';

/** Props of {@link PdfAttachments}. */
export interface PdfAttachmentsProps {
  files: AssistantFile[];
  /** Called with the new list; `update` maps the list as it is when the change lands. */
  onChange: (update: (files: AssistantFile[]) => AssistantFile[]) => void;
  /** Shown only: no attach or remove. */
  readOnly?: boolean;
  onBusyChange?: (busy: boolean) => void;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** "a.pdf", "a.pdf and b.pdf", "a.pdf, b.pdf and c.pdf". */
function listNames(names: string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * The PDFs an assistant reads (at most {@link MAX_ASSISTANT_FILES}): each with its name and a remove
 * button, and an attach button that uploads new ones to chats/ and reads their text. Only the
 * free slots of a selection are read; the teacher is told which files were left out. Each PDF
 * with text is attached; one without (unreadable, or scanned images only) is left out and named.
 */
export function PdfAttachments({ files, onChange, readOnly = false, onBusyChange }: PdfAttachmentsProps) {
  const input = useRef<HTMLInputElement>(null);
  const abort = useRef<AbortController | null>(null);
  const [reading, setReading] = useState<number>(0);
  const [leftOut, setLeftOut] = useState<string[]>([]);
  const [unreadable, setUnreadable] = useState<string[]>([]);
  const { showToast } = useToast();
  const limitId = useId();
  const full = files.length >= MAX_ASSISTANT_FILES;
  useEffect(() => () => abort.current?.abort(), []);

  const attach = async (selection: File[]) => {
    const { read, leftOut: skipped } = choosePdfs(selection, files.length);
    setLeftOut(skipped.map((file) => file.name));
    setUnreadable([]);
    if (read.length === 0) return;
    const controller = new AbortController();
    abort.current = controller;
    setReading(read.length);
    onBusyChange?.(true);
    try {
      const { added, unreadable: notRead } = await readPdfs(read, controller.signal);
      if (controller.signal.aborted) return;
      if (added.length > 0) onChange((current) => [...current, ...added].slice(0, MAX_ASSISTANT_FILES));
      if (notRead.length > 0) {
        setUnreadable(notRead);
        showToast({ type: 'error', message: "Couldn't read PDF" });
      }
    } catch (error) {
      if (controller.signal.aborted) return;
      console.warn('Reading the PDFs failed', error);
      showToast({ type: 'error', message: "Couldn't read PDF" });
    } finally {
      if (!controller.signal.aborted) {
        setReading(0);
        onBusyChange?.(false);
      }
    }
  };

  return (
    <Box>
      {files.length > 0 && (
        <Box component="ul" aria-label="Attached PDFs" sx={{ listStyle: 'none', m: 0, mb: 1.5, p: 0, display: 'grid', gap: 1 }}>
          {files.map((file, index) => (
            <Box
              component="li"
              key={`${index}-${file.fileName}`}
              sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 1.5, py: 1, border: 1, borderColor: 'divider', borderRadius: '8px' }}
            >
              <PictureAsPdfOutlined fontSize="small" aria-hidden="true" sx={{ color: '#a23b4c' }} />
              <Typography sx={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>{file.fileName}</Typography>
              {!readOnly && (
                <IconButton
                  size="small"
                  aria-label={`Remove ${file.fileName}`}
                  disabled={reading > 0}
                  onClick={() => onChange((current) => current.filter((_, i) => i !== index))}
                >
                  <CloseRounded fontSize="small" />
                </IconButton>
              )}
            </Box>
          ))}
        </Box>
      )}
      {readOnly && files.length === 0 && (
        <Typography color="text.secondary">No PDFs attached.</Typography>
      )}
      {!readOnly && (
        <>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
            <Button
              variant="outlined"
              size="small"
              startIcon={<AttachFileRounded />}
              disabled={full}
              loading={reading > 0}
              aria-describedby={limitId}
              onClick={() => input.current?.click()}
            >
              Attach PDFs
            </Button>
            <Typography id={limitId} variant="body2" color="text.secondary" role="status">
              {reading > 0
                ? `Reading ${plural(reading, 'PDF', 'PDFs')}…`
                : full
                  ? `An assistant can hold at most ${MAX_ASSISTANT_FILES} PDFs. Remove one to attach another.`
                  : `${plural(MAX_ASSISTANT_FILES - files.length, 'more PDF', 'more PDFs')} can be attached.`}
            </Typography>
          </Box>
          {leftOut.length > 0 && (
            <Alert severity="warning" onClose={() => setLeftOut([])} sx={{ mt: 1.5 }}>
              An assistant holds at most {MAX_ASSISTANT_FILES} PDFs, so {listNames(leftOut)}{' '}
              {leftOut.length === 1 ? 'was' : 'were'} left out.
            </Alert>
          )}
          {unreadable.length > 0 && (
            <Alert severity="warning" role="status" onClose={() => setUnreadable([])} sx={{ mt: 1.5 }}>
              No text could be read from {listNames(unreadable)} (damaged, or only scanned images), so{' '}
              {unreadable.length === 1 ? 'it was' : 'they were'} left out.
            </Alert>
          )}
          <input
            ref={input}
            type="file"
            accept={`${PDF_TYPE},.pdf`}
            multiple
            hidden
            disabled={full || reading > 0}
            aria-label="Choose PDFs to attach"
            data-testid="assistant-pdf-input"
            onChange={(event) => {
              const selection = Array.from(event.target.files ?? []);
              event.target.value = '';
              if (selection.length > 0) void attach(selection);
            }}
          />
        </>
      )}
    </Box>
  );
}
