import AttachFileRounded from '@mui/icons-material/AttachFileRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import { useReadPdf } from '../api/read-pdf';
import { MAX_SHEET_CHARS, useRubricFromSheet } from '../api/rubric-from-sheet';
import { REQUIRED_FIELDS_MESSAGE } from '../lib/messages';

/** Toast after the rubric is saved. */
export const RUBRIC_SAVED_MESSAGE = 'Rubric saved to your library';
/** Toast when an attached PDF gave no text. */
export const PDF_FAILED_MESSAGE = "Couldn't read PDF";
/** Shown when the server gave no reason for failing. */
const RUBRIC_FAILED_FALLBACK = 'Failed to generate rubric.';

/** Props for {@link RubricFromSheetDialog}. */
export interface RubricFromSheetDialogProps {
  open: boolean;
  onClose: () => void;
}

/**
 * Drafts a rubric from an assignment sheet: the teacher pastes its text or attaches a PDF (read
 * into the text box), and the server saves the rubric in the library; the editor then opens it.
 * The text survives closing and reopening the dialog, and a failure.
 */
export function RubricFromSheetDialog({ open, onClose }: RubricFromSheetDialogProps) {
  const titleId = useId();
  const descriptionId = useId();
  const navigate = useNavigate();
  const { showToast } = useToast();
  const create = useRubricFromSheet();
  const readPdf = useReadPdf();
  const fileInput = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [missing, setMissing] = useState(false);
  // Said inside the dialog too: while it is open, the page behind it (and its toast) is hidden
  // from screen readers.
  const [failure, setFailure] = useState<string | null>(null);
  const busy = create.isPending || readPdf.isPending;

  function close() {
    if (create.isPending) return;
    setFailure(null);
    setMissing(false);
    onClose();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const assignmentText = text.trim();
    if (assignmentText === '') {
      setMissing(true);
      showToast({ type: 'error', message: REQUIRED_FIELDS_MESSAGE });
      return;
    }
    setFailure(null);
    create.mutate(assignmentText, {
      onSuccess: (rubric) => {
        showToast({ type: 'success', message: RUBRIC_SAVED_MESSAGE });
        void navigate(`/rubrics/${rubric._id}`);
      },
      onError: (error) => {
        const message = errorMessage(error, RUBRIC_FAILED_FALLBACK);
        setFailure(message);
        showToast({ type: 'error', message });
      },
    });
  }

  function attach(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setFailure(null);
    readPdf.mutate(file, {
      onSuccess: (pdfText) => {
        setMissing(false);
        setText((current) => (current.trim() === '' ? pdfText : `${current.trimEnd()}\n\n${pdfText}`).slice(0, MAX_SHEET_CHARS));
      },
      onError: (error) => {
        console.warn(`Reading ${file.name} failed`, error);
        setFailure(PDF_FAILED_MESSAGE);
        showToast({ type: 'error', message: PDF_FAILED_MESSAGE });
      },
    });
  }

  return (
    <Dialog
      open={open}
      onClose={close}
      maxWidth="md"
      fullWidth
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
    >
      <form noValidate onSubmit={submit}>
        <DialogTitle id={titleId}>Rubric from an assignment sheet</DialogTitle>
        <DialogContent>
          <DialogContentText id={descriptionId} sx={{ mb: 2 }}>
            Paste the assignment sheet's text or attach it as a PDF. Markwell drafts a rubric from it and saves it to
            your library, where you can edit it.
          </DialogContentText>
          <TextField
            label="Assignment sheet"
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              if (event.target.value.trim() !== '') setMissing(false);
            }}
            multiline
            minRows={8}
            maxRows={18}
            required
            autoFocus
            disabled={create.isPending}
            error={missing}
            placeholder="Paste the task, its instructions and what students must hand in…"
            helperText={
              missing
                ? 'Paste the assignment sheet or attach a PDF.'
                : `${text.length.toLocaleString('en-US')} / ${MAX_SHEET_CHARS.toLocaleString('en-US')} characters`
            }
            slotProps={{ htmlInput: { maxLength: MAX_SHEET_CHARS } }}
          />
          <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5, mt: 1.5 }}>
            <Button
              variant="outlined"
              startIcon={<AttachFileRounded />}
              onClick={() => fileInput.current?.click()}
              loading={readPdf.isPending}
              loadingPosition="start"
              disabled={create.isPending}
            >
              Attach PDF
            </Button>
            <input
              ref={fileInput}
              type="file"
              accept="application/pdf,.pdf"
              aria-label="PDF of the assignment sheet"
              hidden
              onChange={attach}
            />
            {readPdf.isPending && (
              <Typography variant="body2" color="text.secondary" role="status">
                Reading the PDF…
              </Typography>
            )}
          </Box>
          {create.isPending && (
            <Box role="status" sx={{ mt: 2.5 }}>
              <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                Drafting your rubric. This can take a minute.
              </Typography>
              <LinearProgress aria-label="Creating rubric" />
            </Box>
          )}
          {failure && (
            <Alert severity="error" sx={{ mt: 2 }}>
              {failure}
            </Alert>
          )}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5, gap: 1, flexWrap: 'wrap' }}>
          <Button onClick={close} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" loading={create.isPending} disabled={readPdf.isPending}>
            Create rubric
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
