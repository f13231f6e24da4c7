import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useAutosave, type AutosaveOptions } from '../../hooks/use-autosave';
import { SaveStatus } from '../review/SaveStatus';

/** Props of {@link OverallText}. */
export interface OverallTextProps {
  /** The field's name, also its heading when read-only. */
  label: string;
  value: string;
  readOnly?: boolean;
  saving?: boolean;
  /** Saves the new text (`quiet` when saved by the timer as the teacher types); resolves true when saved. */
  onSave: (value: string, options: AutosaveOptions) => Promise<boolean>;
}

/**
 * An overall comment: for a teacher, a text field saved as they type (once typing stops, when the
 * field or the screen is left) with a Save button to save at once; or the text under a heading
 * when read-only (nothing when empty).
 */
export function OverallText({ label, value, readOnly = false, saving = false, onSave }: OverallTextProps) {
  const [draft, setDraft] = useState(value);
  const [base, setBase] = useState(value);
  const autosave = useAutosave<string>((changes, options) => onSave(changes.get('text') ?? value, options));
  if (value !== base) {
    // A newer value arrived (saved, or refetched): start from it, unless the teacher typed since.
    setBase(value);
    if (draft === base) setDraft(value);
  }

  if (readOnly) {
    if (value.trim() === '') return null;
    return (
      <Box>
        <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600, mb: 0.5 }}>
          {label}
        </Typography>
        <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{value}</Typography>
      </Box>
    );
  }
  return (
    <Box
      component="form"
      onSubmit={(e) => {
        e.preventDefault();
        autosave.flush();
      }}
    >
      <TextField
        label={label}
        value={draft}
        onChange={(e) => {
          setDraft(e.target.value);
          if (e.target.value === value) autosave.discard('text');
          else autosave.change('text', e.target.value);
        }}
        onBlur={() => autosave.flush()}
        multiline
        minRows={3}
        fullWidth
      />
      <Stack direction="row" spacing={1} sx={{ mt: 1, justifyContent: 'flex-end', alignItems: 'center' }}>
        <SaveStatus status={autosave.status} onRetry={() => autosave.flush()} />
        {draft !== value && (
          <Button
            onClick={() => {
              autosave.discard('text');
              setDraft(value);
            }}
            disabled={saving}
          >
            Discard
          </Button>
        )}
        <Button type="submit" variant="contained" disabled={draft === value} loading={saving}>
          {`Save ${label.toLowerCase()}`}
        </Button>
      </Stack>
    </Box>
  );
}
