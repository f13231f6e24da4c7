import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import type { HighlighterInfo } from '../../lib/definition';
import { findPassage, type AddedHighlight, type ParsedHighlights } from '../../lib/highlights';
import { HighlighterChip } from './HighlighterChip';

/** What the dialog opens with: the words selected in the text, and where they start. */
export interface AddHighlightStart {
  passage: string;
  near?: number;
}

/** Props of {@link AddHighlightDialog}. */
export interface AddHighlightDialogProps {
  /** Open with these words (empty: the teacher types them); null: closed. */
  start: AddHighlightStart | null;
  /** The result's highlights now: where the words may go. */
  parsed: ParsedHighlights;
  /** The assignment's highlighters, the only keys the server takes. */
  highlighters: readonly HighlighterInfo[];
  onAdd: (added: AddedHighlight) => void;
  onClose: () => void;
}

/**
 * Adds a highlight the AI did not make: the words (selected in the text, or typed or pasted
 * here), a highlighter of the assignment's and a comment. Words that are not in the text, or that
 * a highlight already covers, are refused here with the reason, and nothing changes.
 */
export function AddHighlightDialog({ start, ...rest }: AddHighlightDialogProps) {
  // Keyed by what it opened with: each opening starts from its own words.
  return (
    <Dialog open={start !== null} onClose={rest.onClose} fullWidth maxWidth="sm" aria-labelledby="add-highlight-title">
      {start && <AddHighlightForm key={`${start.near ?? ''}:${start.passage}`} start={start} {...rest} />}
    </Dialog>
  );
}

function AddHighlightForm({ start, parsed, highlighters, onAdd, onClose }: Omit<AddHighlightDialogProps, 'start'> & { start: AddHighlightStart }) {
  const [passage, setPassage] = useState(start.passage);
  const [key, setKey] = useState(highlighters[0]?.key ?? '');
  const [comment, setComment] = useState('');
  const [error, setError] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The selection's place counts only while its words are the ones in the field.
    const found = findPassage(parsed, passage, passage === start.passage ? start.near : undefined);
    if ('error' in found) {
      setError(found.error);
      return;
    }
    onAdd({ ...found, key, comment: comment.trim() });
  };

  return (
    <form onSubmit={submit} noValidate>
      <DialogTitle id="add-highlight-title">Add a highlight</DialogTitle>
      <DialogContent>
        <Stack spacing={2.5} sx={{ pt: 1 }}>
          <TextField
            label="Words to highlight"
            value={passage}
            onChange={(e) => {
              setPassage(e.target.value);
              setError('');
            }}
            error={error !== ''}
            helperText={error || 'As they are in the submission. Selecting words in the text fills this in.'}
            multiline
            maxRows={4}
            required
            fullWidth
            autoFocus={start.passage.trim() === ''}
          />
          <FormControl>
            <FormLabel id="add-highlight-highlighter">Highlighter</FormLabel>
            <RadioGroup aria-labelledby="add-highlight-highlighter" value={key} onChange={(e) => setKey(e.target.value)}>
              {highlighters.map((h) => (
                <FormControlLabel
                  key={h.key}
                  value={h.key}
                  control={<Radio size="small" />}
                  label={<HighlighterChip color={h.color} label={h.title} />}
                />
              ))}
            </RadioGroup>
          </FormControl>
          <TextField
            label="Comment"
            value={comment}
            onChange={(e) => setComment(e.target.value)}
            multiline
            minRows={2}
            fullWidth
            autoFocus={start.passage.trim() !== ''}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button type="submit" variant="contained" disabled={key === ''}>
          Add highlight
        </Button>
      </DialogActions>
    </form>
  );
}
