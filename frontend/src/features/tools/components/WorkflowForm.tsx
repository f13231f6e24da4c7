import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useRef, type FormEvent } from 'react';
import { useToast } from '../../../components/toast';
import type { WorkflowField } from '../api/types';
import { REQUIRED_FIELDS_MESSAGE } from '../lib/messages';
import { missingFields, type WorkflowAnswers } from '../lib/workflow-inputs';

/** Props for {@link WorkflowForm}. */
export interface WorkflowFormProps {
  fields: WorkflowField[];
  answers: WorkflowAnswers;
  onChange: (answers: WorkflowAnswers) => void;
  /** Names of the fields marked as missing; the page keeps them so they survive a re-render. */
  missing: string[];
  onMissingChange: (missing: string[]) => void;
  /** Called with the answers once every required field is filled. */
  onSubmit: () => void;
}

/**
 * A workflow's questions: text, long text and choice fields, required ones marked, each held to
 * its length limit. "Create document" with a required field empty toasts and marks the fields.
 */
export function WorkflowForm({ fields, answers, onChange, missing, onMissingChange, onSubmit }: WorkflowFormProps) {
  const { showToast } = useToast();
  const formRef = useRef<HTMLFormElement>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const empty = missingFields(fields, answers);
    onMissingChange(empty);
    if (empty.length > 0) {
      showToast({ type: 'error', message: REQUIRED_FIELDS_MESSAGE });
      formRef.current?.querySelector<HTMLElement>(`[name="${CSS.escape(empty[0])}"]`)?.focus();
      return;
    }
    onSubmit();
  }

  function change(field: WorkflowField, value: string) {
    onChange({ ...answers, [field.name]: value });
    if (value.trim() !== '' && missing.includes(field.name)) onMissingChange(missing.filter((name) => name !== field.name));
  }

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderRadius: '12px' }}>
      <form ref={formRef} noValidate onSubmit={submit} aria-label="Workflow questions">
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2.5 }}>
          Fields marked * are required.
        </Typography>
        <Box sx={{ display: 'grid', gap: 2.5 }}>
          {fields.map((field) => (
            <FieldInput
              key={field.name}
              field={field}
              value={answers[field.name] ?? ''}
              missing={missing.includes(field.name)}
              onChange={(value) => change(field, value)}
            />
          ))}
        </Box>
        <Box sx={{ mt: 3 }}>
          <Button type="submit" variant="contained" size="large">
            Create document
          </Button>
        </Box>
      </form>
    </Paper>
  );
}

function FieldInput({
  field,
  value,
  missing,
  onChange,
}: {
  field: WorkflowField;
  value: string;
  missing: boolean;
  onChange: (value: string) => void;
}) {
  const helper = missing
    ? `${field.label} is required.`
    : field.kind === 'textarea' && field.maxLength > 0
      ? `${value.length.toLocaleString('en-US')} / ${field.maxLength.toLocaleString('en-US')} characters`
      : ' ';
  const common = {
    name: field.name,
    label: field.label,
    value,
    required: field.required,
    error: missing,
    helperText: helper,
    onChange: (event: { target: { value: string } }) => onChange(event.target.value),
  };

  if (field.kind === 'select') {
    return (
      <TextField {...common} select slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}>
        <option value="">{field.placeholder || 'Choose…'}</option>
        {(field.options ?? []).map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </TextField>
    );
  }
  return (
    <TextField
      {...common}
      placeholder={field.placeholder}
      multiline={field.kind === 'textarea'}
      minRows={field.kind === 'textarea' ? 4 : undefined}
      maxRows={field.kind === 'textarea' ? 14 : undefined}
      autoComplete="off"
      slotProps={{
        htmlInput: { maxLength: field.maxLength > 0 ? field.maxLength : undefined },
        inputLabel: field.placeholder ? { shrink: true } : undefined,
      }}
    />
  );
}
