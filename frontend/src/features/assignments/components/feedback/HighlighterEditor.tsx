import AddRounded from '@mui/icons-material/AddRounded';
import DeleteOutlineRounded from '@mui/icons-material/DeleteOutlineRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { Tooltip } from '../../../../components/Tooltip';
import { useState } from 'react';
import { newHighlighter, type HighlighterDraft } from '../../lib/highlighters';
import { HighlightChip } from '../view/HighlightChip';
import { ColorPicker } from './ColorPicker';

/** Props for {@link HighlighterEditor}. */
export interface HighlighterEditorProps {
  highlighters: HighlighterDraft[];
  onChange: (highlighters: HighlighterDraft[]) => void;
}

/**
 * The list of highlighters: each a card (a group named "Highlighter N") with a live preview of
 * how its highlights look, its title, colour and description, and a remove button.
 */
export function HighlighterEditor({ highlighters, onChange }: HighlighterEditorProps) {
  // The title of a highlighter added by the button takes focus when it appears.
  const [addedId, setAddedId] = useState<string | null>(null);
  const update = (id: string, change: Partial<HighlighterDraft>) =>
    onChange(highlighters.map((h) => (h.id === id ? { ...h, ...change } : h)));

  return (
    <Stack spacing={2}>
      {highlighters.map((h, i) => {
        const n = i + 1;
        return (
          <Paper key={h.id} variant="outlined" role="group" aria-label={`Highlighter ${n}`} sx={{ p: { xs: 2, sm: 2.5 } }}>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 2, minWidth: 0 }}>
              <Box sx={{ minWidth: 0, flex: 1, display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 1.5, rowGap: 0.5 }}>
                <HighlightChip color={h.color} label={h.title.trim() || `Highlighter ${n}`} />
              </Box>
              <Tooltip title="Remove highlighter">
                <IconButton
                  aria-label={`Remove highlighter ${n}`}
                  onClick={() => onChange(highlighters.filter((x) => x.id !== h.id))}
                  edge="end"
                >
                  <DeleteOutlineRounded />
                </IconButton>
              </Tooltip>
            </Box>
            <Box
              sx={{
                display: 'grid',
                gap: 2,
                gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'minmax(0, 1fr) auto' },
                alignItems: 'start',
              }}
            >
              <TextField
                label="Title"
                value={h.title}
                required
                autoComplete="off"
                autoFocus={h.id === addedId}
                onChange={(event) => update(h.id, { title: event.target.value })}
                slotProps={{ htmlInput: { maxLength: 80 } }}
              />
              <ColorPicker value={h.color} onChange={(color) => update(h.id, { color })} />
              <TextField
                label="Description"
                value={h.description}
                required
                multiline
                minRows={2}
                onChange={(event) => update(h.id, { description: event.target.value })}
                helperText="Tell the AI what this highlighter should point out."
                sx={{ gridColumn: '1 / -1' }}
              />
            </Box>
          </Paper>
        );
      })}
      <Box>
        <Button variant="outlined" startIcon={<AddRounded />} onClick={() => {
            const added = newHighlighter(highlighters);
            setAddedId(added.id);
            onChange([...highlighters, added]);
          }}>
          Add highlighter
        </Button>
      </Box>
    </Stack>
  );
}
