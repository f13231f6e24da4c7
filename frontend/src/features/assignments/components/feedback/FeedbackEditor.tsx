import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useEffect, useState } from 'react';
import { highlightersProblem, toApiHighlighters, type HighlighterDraft } from '../../lib/highlighters';
import type { EditorProps } from '../edit/editor-props';
import { HighlighterEditor } from './HighlighterEditor';

/** A saved feedback assignment's question context and highlighters, in the wizard's editors. */
export function FeedbackEditor({ fn, onChange }: EditorProps) {
  const [context, setContext] = useState(fn.context ?? '');
  const [highlighters, setHighlighters] = useState<HighlighterDraft[]>(() =>
    (fn.highlights ?? []).map((h, i) => ({ id: `saved-${i}-${h.key}`, title: h.title, description: h.description, color: h.color })),
  );

  useEffect(() => {
    onChange({
      input: { highlights: toApiHighlighters(highlighters), context: context.trim() },
      problem: context.trim() === '' ? 'Describe what the students were asked to continue.' : highlightersProblem(highlighters),
    });
  }, [context, highlighters, onChange]);

  return (
    <Stack spacing={3}>
      <TextField
        label="Question context"
        value={context}
        onChange={(event) => setContext(event.target.value)}
        required
        multiline
        minRows={4}
        maxRows={16}
        helperText="The question, task or prompt the students answered."
      />
      <HighlighterEditor highlighters={highlighters} onChange={setHighlighters} />
    </Stack>
  );
}
