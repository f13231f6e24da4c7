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
  saving?: boolean;
  /** Saves the new text; resolves true when saved. */
  onSave: (value: string) => Promise<boolean>;
}

/**
 * An overall comment: a text field with its own Save button for a teacher (enabled once changed),
 * or the text under a heading when read-only (nothing when empty).
 */
export function OverallText({ label, value, readOnly = false, saving = false, onSave }: OverallTextProps) {
  const [draft, setDraft] = useState(value);
  const [base, setBase] = useState(value);
  if (value !== base) {
    // A newer value arrived (saved, or refetched): start from it.
    setBase(value);
    setDraft(value);
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
        void onSave(draft);
      }}
    >
      <TextField label={label} value={draft} onChange={(e) => setDraft(e.target.value)} multiline minRows={3} fullWidth />
      <Stack direction="row" spacing={1} sx={{ mt: 1, justifyContent: 'flex-end' }}>
        {draft !== value && (
          <Button onClick={() => setDraft(value)} disabled={saving}>
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
