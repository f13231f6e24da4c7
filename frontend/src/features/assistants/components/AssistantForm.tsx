import ArrowBackRounded from '@mui/icons-material/ArrowBackRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useCreateAssistant, useUpdateAssistant } from '../api/save-assistant';
import type { Assistant, AssistantFile, AssistantInput } from '../types';
import { ImageField } from './ImageField';
import { PdfAttachments } from './PdfAttachments';

/** Props of {@link AssistantForm}. */
export interface AssistantFormProps {
  /** The saved assistant to edit; absent for a new one. */
  assistant?: Assistant;
  /** The teacher may not change it: the fields are shown, nothing can be saved. */
  readOnly?: boolean;
}

type Required = 'title' | 'description' | 'systemPrompt';
const REQUIRED: Required[] = ['title', 'description', 'systemPrompt'];

function draftOf(assistant?: Assistant): AssistantInput {
  return {
    title: assistant?.title ?? '',
    description: assistant?.description ?? '',
    systemPrompt: assistant?.systemPrompt ?? '',
    initialMessage: assistant?.initialMessage ?? '',
    fileData: assistant?.fileData ?? [],
    imageURL: assistant?.imageURL ?? '',
  };
}

/**
 * The assistant editor (`/assistants/new`, `/assistants/:assistantId/edit`): title, description,
 * system prompt, initial message, picture and PDFs. Missing required fields are marked and nothing
 * is sent; a refused save keeps everything on the form.
 */
export function AssistantForm({ assistant, readOnly = false }: AssistantFormProps) {
  const editing = assistant !== undefined;
  useDocumentTitle(editing ? `Edit ${assistant.title}` : 'New assistant');
  const [draft, setDraft] = useState<AssistantInput>(() => draftOf(assistant));
  const [missing, setMissing] = useState<Set<Required>>(new Set());
  const [imageBusy, setImageBusy] = useState(false);
  const [pdfBusy, setPdfBusy] = useState(false);
  const create = useCreateAssistant();
  const update = useUpdateAssistant();
  const saving = create.isPending || update.isPending;
  const navigate = useNavigate();
  const location = useLocation();
  const { showToast } = useToast();

  const set = <K extends keyof AssistantInput>(field: K, value: AssistantInput[K]) => {
    setDraft((d) => ({ ...d, [field]: value }));
    if (missing.has(field as Required) && typeof value === 'string' && value.trim() !== '') {
      setMissing((m) => new Set([...m].filter((f) => f !== field)));
    }
  };

  const goBack = () => {
    // With no page of this app behind it (opened directly), "back" is the list.
    if (location.key === 'default') void navigate('/assistants');
    else void navigate(-1);
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (readOnly || saving) return;
    const empty = REQUIRED.filter((field) => draft[field].trim() === '');
    if (empty.length > 0) {
      setMissing(new Set(empty));
      showToast({ type: 'error', message: 'Please fill in all required fields' });
      document.getElementById(`assistant-${empty[0]}`)?.focus();
      return;
    }
    setMissing(new Set());
    try {
      if (editing) await update.mutateAsync({ ...draft, assistantId: assistant._id });
      else await create.mutateAsync(draft);
    } catch (error) {
      showToast({ type: 'error', message: errorMessage(error, 'Error saving assistant') });
      return;
    }
    showToast({ type: 'success', message: 'Assistant saved successfully' });
    void navigate('/assistants');
  };

  const field = (name: Required) => ({
    id: `assistant-${name}`,
    required: true,
    error: missing.has(name),
    value: draft[name],
    onChange: (event: { target: { value: string } }) => set(name, event.target.value),
    slotProps: { htmlInput: { readOnly } },
  });

  return (
    <Box component="form" noValidate onSubmit={(event) => void save(event)} sx={{ maxWidth: 760 }}>
      <Link component={RouterLink} to="/assistants" underline="hover" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, mb: 1.5 }}>
        <ArrowBackRounded fontSize="small" aria-hidden="true" />
        Assistants
      </Link>
      <Typography variant="h1" sx={{ mb: 3, overflowWrap: 'anywhere' }}>
        {editing ? (readOnly ? assistant.title : 'Edit assistant') : 'New assistant'}
      </Typography>

      {readOnly && (
        <Alert severity="info" sx={{ mb: 3 }}>
          Only the assistant&apos;s author or the team&apos;s owner can change it. You can still chat with it, or make a
          copy of your own from the assistants list.
        </Alert>
      )}

      <Section title="About">
        <TextField
          {...field('title')}
          label="Title"
          helperText={missing.has('title') ? 'Give the assistant a title.' : 'A short name, e.g. “Lesson planner”.'}
        />
        <TextField
          {...field('description')}
          label="Description"
          multiline
          minRows={2}
          helperText={missing.has('description') ? 'Describe what the assistant is for.' : 'What it helps with; shown on its card.'}
        />
        <Box>
          <Typography component="h3" variant="subtitle2" sx={{ mb: 1 }}>
            Picture
          </Typography>
          <ImageField
            value={draft.imageURL}
            title={draft.title}
            readOnly={readOnly}
            onChange={(imageURL) => set('imageURL', imageURL)}
            onBusyChange={setImageBusy}
          />
        </Box>
      </Section>

      <Section title="Behaviour">
        <TextField
          {...field('systemPrompt')}
          label="System prompt"
          multiline
          minRows={5}
          helperText={
            missing.has('systemPrompt')
              ? 'Write the instructions the assistant follows.'
              : 'The assistant’s instructions: who it is, what it does and how it answers. The model follows them in every chat; teachers never see them in the conversation.'
          }
        />
        <TextField
          id="assistant-initialMessage"
          label="Initial message (optional)"
          multiline
          minRows={2}
          value={draft.initialMessage}
          onChange={(event) => set('initialMessage', event.target.value)}
          slotProps={{ htmlInput: { readOnly } }}
          helperText="The assistant’s first message in every new chat, e.g. “Which year group are we planning for?”"
        />
      </Section>

      <Section title="Reference PDFs" description="The assistant reads these and uses them in every chat.">
        <PdfAttachments
          files={draft.fileData}
          readOnly={readOnly}
          onChange={(change: (files: AssistantFile[]) => AssistantFile[]) =>
            setDraft((d) => ({ ...d, fileData: change(d.fileData) }))
          }
          onBusyChange={setPdfBusy}
        />
      </Section>

      <Box sx={{ display: 'flex', gap: 1.5, justifyContent: 'flex-end', flexWrap: 'wrap', mt: 3 }}>
        <Button onClick={goBack} disabled={saving}>
          {readOnly ? 'Back' : 'Cancel'}
        </Button>
        {!readOnly && (
          <Button type="submit" variant="contained" loading={saving} disabled={imageBusy || pdfBusy}>
            Save assistant
          </Button>
        )}
      </Box>
    </Box>
  );
}

function Section({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <Paper component="section" variant="outlined" sx={{ borderRadius: '12px', p: { xs: 2, sm: 3 }, mb: 2 }}>
      <Typography component="h2" variant="h6" sx={{ fontSize: '1.05rem', mb: description ? 0.5 : 2 }}>
        {title}
      </Typography>
      {description && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {description}
        </Typography>
      )}
      <Box sx={{ display: 'grid', gap: 2.5 }}>{children}</Box>
    </Paper>
  );
}
