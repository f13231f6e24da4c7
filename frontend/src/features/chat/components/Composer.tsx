import AttachFileRounded from '@mui/icons-material/AttachFileRounded';
import SendRounded from '@mui/icons-material/SendRounded';
import StopRounded from '@mui/icons-material/StopRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import { Tooltip } from '../../../components/Tooltip';
import { useRef, useState, type KeyboardEvent } from 'react';
import { ACCEPTED_FILES } from '../api/read-files';

/** Props of {@link Composer}. */
export interface ComposerProps {
  streaming: boolean;
  /** Files are being uploaded and read. */
  reading: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
  onAttach: (files: File[]) => void;
}

/** Where the teacher writes: Enter sends, Shift+Enter starts a new line; Stop while an answer streams. */
export function Composer({ streaming, reading, onSend, onStop, onAttach }: ComposerProps) {
  const [text, setText] = useState('');
  const fileInput = useRef<HTMLInputElement>(null);
  const busy = streaming || reading;
  const canSend = !busy && text.trim() !== '';

  const send = () => {
    if (!canSend) return;
    onSend(text.trim());
    setText('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };

  return (
    <Box
      component="form"
      aria-label="Write a message"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
      sx={{ display: 'flex', alignItems: 'flex-end', gap: 1, minWidth: 0 }}
    >
      <input
        ref={fileInput}
        type="file"
        multiple
        accept={ACCEPTED_FILES}
        hidden
        data-testid="chat-file-input"
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          event.target.value = '';
          if (files.length > 0) onAttach(files);
        }}
      />
      <Tooltip title="Attach files (PDF, Word, PowerPoint, text, images)">
        <span>
          <IconButton aria-label="Attach files" disabled={busy} onClick={() => fileInput.current?.click()}>
            {reading ? <CircularProgress size={20} aria-label="Reading files" /> : <AttachFileRounded />}
          </IconButton>
        </span>
      </Tooltip>
      <TextField
        label="Message"
        placeholder="Ask for a lesson plan, a quiz, a letter…"
        multiline
        maxRows={8}
        fullWidth
        size="small"
        value={text}
        disabled={streaming}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        sx={{ minWidth: 0 }}
      />
      {streaming ? (
        <Button variant="outlined" color="inherit" startIcon={<StopRounded />} onClick={onStop} sx={{ flex: '0 0 auto' }}>
          Stop
        </Button>
      ) : (
        <Button type="submit" variant="contained" disabled={!canSend} endIcon={<SendRounded />} sx={{ flex: '0 0 auto' }}>
          Send
        </Button>
      )}
    </Box>
  );
}
