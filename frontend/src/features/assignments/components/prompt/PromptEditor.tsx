import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useEffect, useState } from 'react';
import type { EditorProps } from '../edit/editor-props';
import { HANDWRITTEN_HELP } from '../wizard/NameField';
import { SettingSwitch } from '../wizard/SettingSwitch';

/** A saved prompt assignment's prompt and switch, as its creation form shows them. */
export function PromptEditor({ fn, settings, onSettings, onChange }: EditorProps) {
  const [prompt, setPrompt] = useState(fn.prompt ?? '');

  useEffect(() => {
    onChange({ input: { prompt: prompt.trim() }, problem: prompt.trim() === '' ? 'Write the prompt to continue.' : null });
  }, [prompt, onChange]);

  return (
    <Stack spacing={3}>
      <TextField
        label="Prompt"
        value={prompt}
        onChange={(event) => setPrompt(event.target.value)}
        required
        multiline
        minRows={8}
        maxRows={20}
        helperText="What the AI should do with each submission."
      />
      <SettingSwitch
        label="Handwritten"
        description={HANDWRITTEN_HELP}
        checked={settings.isHandWritten}
        onChange={(isHandWritten) => onSettings({ ...settings, isHandWritten })}
      />
    </Stack>
  );
}
