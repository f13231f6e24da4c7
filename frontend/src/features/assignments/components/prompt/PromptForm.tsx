import CheckRounded from '@mui/icons-material/CheckRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useDocumentTitle } from '../../../../lib/use-document-title';
import { useCreateAssignmentWithDefinition } from '../../hooks/use-create-assignment';
import { FormFooter } from '../wizard/FormFooter';
import { LeavingSpinner } from '../wizard/LeavingSpinner';
import { HANDWRITTEN_HELP, NameField, nameProblem } from '../wizard/NameField';
import { SettingSwitch } from '../wizard/SettingSwitch';

/** Route `/assignments/new/prompt`: one form with a name, the prompt and the handwritten switch. */
export function PromptForm() {
  useDocumentTitle('New prompt assignment');
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [prompt, setPrompt] = useState('');
  const [isHandWritten, setHandWritten] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const { create, pending } = useCreateAssignmentWithDefinition();

  const problem = nameProblem(name) ?? (prompt.trim() === '' ? 'Write the prompt to continue.' : null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (problem || pending) return;
    const id = await create(
      { name: name.trim(), type: 'prompt', isHandWritten, provideInstantFeedback: false },
      { prompt: prompt.trim() },
    );
    if (id) {
      setLeaving(true);
      void navigate(`/assignment/${id}`, { replace: true });
    }
  }

  if (leaving) return <LeavingSpinner />;

  return (
    <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)} sx={{ maxWidth: 880, mx: 'auto' }}>
      <Typography variant="h1">New prompt assignment</Typography>
      <Typography color="text.secondary" sx={{ mt: 0.5, mb: 3 }}>
        The AI follows your prompt for every submission and writes feedback you can edit.
      </Typography>
      <Card>
        <CardContent sx={{ p: { xs: 2, sm: 3 }, '&:last-child': { pb: { xs: 2.5, sm: 3 } } }}>
          <Stack spacing={3}>
            <NameField value={name} onChange={setName} />
            <TextField
              label="Prompt"
              value={prompt}
              onChange={(event) => setPrompt(event.target.value)}
              required
              multiline
              minRows={8}
              maxRows={20}
              placeholder="e.g. Read the student's lab report. Say what the method does well, then list up to three things to improve, each with an example from the report."
              helperText="What the AI should do with each submission."
            />
            <SettingSwitch label="Handwritten" description={HANDWRITTEN_HELP} checked={isHandWritten} onChange={setHandWritten} />
          </Stack>
        </CardContent>
      </Card>
      <FormFooter
        back={
          <Button component={RouterLink} to="/library" color="inherit" disabled={pending}>
            Cancel
          </Button>
        }
        problem={problem}
        submitLabel="Create assignment"
        submitIcon={<CheckRounded />}
        submitting={pending}
      />
    </Box>
  );
}
