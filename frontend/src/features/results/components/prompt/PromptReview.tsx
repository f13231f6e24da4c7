import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useToast } from '../../../../components/toast';
import { FEEDBACK_UPDATE_FAILED_MESSAGE, FEEDBACK_UPDATED_MESSAGE } from '../../api/update-function-result';
import { useUpdatePromptFeedback } from '../../api/update-prompt-feedback';
import type { ResultReviewProps } from '../../lib/definition';
import { MarkdownText } from './MarkdownText';

function SubmissionText({ text }: { text: string }) {
  if (text.trim() === '') return null;
  return (
    <Box component="details" sx={{ '& > summary': { cursor: 'pointer', fontWeight: 600, py: 0.5 } }}>
      <summary>Submission text</summary>
      <Box sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', lineHeight: 1.7, maxHeight: '60vh', overflowY: 'auto', mt: 1 }}>
        {text}
      </Box>
    </Box>
  );
}

/**
 * A prompt result: the AI's free-form feedback, rendered from a safe Markdown subset. A teacher
 * edits it in a text area (with a preview) and saves it with `PUT promptFunctionResult/update`.
 */
export function PromptReview({ result, text, readOnly = false, onChanged }: ResultReviewProps) {
  const mutation = useUpdatePromptFeedback();
  const { showToast } = useToast();
  const [saved, setSaved] = useState<{ from: string; to: string } | null>(null);
  const feedback = saved && saved.from === result.feedback ? saved.to : result.feedback;
  const [draft, setDraft] = useState(feedback);
  const [base, setBase] = useState(feedback);
  const [mode, setMode] = useState<'write' | 'preview'>('write');
  if (feedback !== base) {
    setBase(feedback);
    setDraft(feedback);
  }

  if (readOnly) {
    return (
      <Stack spacing={2}>
        {feedback.trim() === '' ? <Typography color="text.secondary">No feedback yet.</Typography> : <MarkdownText source={feedback} />}
        <SubmissionText text={text} />
      </Stack>
    );
  }

  const onSave = async () => {
    try {
      await mutation.mutateAsync({ functionResultId: result._id, submissionId: result.submission, feedback: draft });
      setSaved({ from: result.feedback, to: draft });
      showToast({ type: 'success', message: FEEDBACK_UPDATED_MESSAGE });
      onChanged?.();
    } catch {
      showToast({ type: 'error', message: FEEDBACK_UPDATE_FAILED_MESSAGE });
    }
  };

  return (
    <Stack spacing={2}>
      <ToggleButtonGroup
        size="small"
        exclusive
        value={mode}
        onChange={(_e, value: 'write' | 'preview' | null) => value && setMode(value)}
        aria-label="Feedback view"
        sx={{ alignSelf: 'flex-start' }}
      >
        <ToggleButton value="write">Write</ToggleButton>
        <ToggleButton value="preview">Preview</ToggleButton>
      </ToggleButtonGroup>
      {mode === 'write' ? (
        <TextField label="Feedback" value={draft} onChange={(e) => setDraft(e.target.value)} multiline minRows={8} fullWidth />
      ) : (
        <Box sx={{ border: 1, borderColor: 'divider', borderRadius: '10px', p: 2, minHeight: 120 }}>
          {draft.trim() === '' ? <Typography color="text.secondary">Nothing to preview.</Typography> : <MarkdownText source={draft} />}
        </Box>
      )}
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
        {draft !== feedback && (
          <Button onClick={() => setDraft(feedback)} disabled={mutation.isPending}>
            Discard
          </Button>
        )}
        <Button variant="contained" onClick={() => void onSave()} disabled={draft === feedback} loading={mutation.isPending}>
          Save feedback
        </Button>
      </Stack>
      <SubmissionText text={text} />
    </Stack>
  );
}
