import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';

/** Props of {@link OverallText}. */
export interface OverallTextProps {
  /** The field's name, also its heading when read-only. */
  label: string;
  value: string;
  readOnly?: boolean;
  /** The text as typed, to save once typing stops (null: back to the saved text, nothing to save). */
  onDraft?: (value: string | null) => void;
  /** The field was left or Save pressed: save what is typed now. */
  onSaveNow?: () => void;
}

/**
 * An overall comment: for a teacher, a text field saved as they type (by the screen: once typing
 * stops, when the field or the screen is left) with a Save button to save at once; or the text
 * under a heading when read-only (nothing when empty).
 */
export function OverallText({ label, value, readOnly = false, onDraft, onSaveNow }: OverallTextProps) {
  const [draft, setDraft] = useState(value);
  const [base, setBase] = useState(value);
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
        onSaveNow?.();
      }}
    >
      <TextField
        label={label}
        value={draft}
        onChange={(e) => {
          setDraft(e.target.value);
          onDraft?.(e.target.value === value ? null : e.target.value);
        }}
        onBlur={() => onSaveNow?.()}
        multiline
        minRows={3}
        fullWidth
      />
      <Stack direction="row" spacing={1} sx={{ mt: 1, justifyContent: 'flex-end', alignItems: 'center' }}>
        {draft !== value && (
          <Button
            onClick={() => {
              onDraft?.(null);
              setDraft(value);
            }}
          >
            Discard
          </Button>
        )}
        <Button type="submit" variant="contained" disabled={draft === value}>
          {`Save ${label.toLowerCase()}`}
        </Button>
      </Stack>
    </Box>
  );
}
