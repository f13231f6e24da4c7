import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { MarkdownEditor } from '../../../../components/MarkdownEditor';
import { useToast } from '../../../../components/toast';
import { FEEDBACK_UPDATE_FAILED_MESSAGE, FEEDBACK_UPDATED_MESSAGE } from '../../api/update-function-result';
import { useUpdatePromptFeedback } from '../../api/update-prompt-feedback';
import { useAutosave } from '../../hooks/use-autosave';
import type { ResultReviewProps } from '../../lib/definition';
import { SaveStatus } from '../review/SaveStatus';
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

/** The student's work, kept in view beside the feedback while the teacher edits it. */
function StudentWork({ text }: { text: string }) {
  const headingId = useId();
  return (
    <Box
      component="section"
      aria-labelledby={headingId}
      sx={{ border: 1, borderColor: 'divider', borderRadius: '8px', bgcolor: 'background.default', minWidth: 0, position: { md: 'sticky' }, top: { md: 16 } }}
    >
      <Typography id={headingId} variant="subtitle2" component="h3" sx={{ px: 2, pt: 1.5, pb: 1, borderBottom: 1, borderColor: 'divider' }}>
        Student's work
      </Typography>
      <Box
        tabIndex={0}
        aria-label="Student's work, scrollable"
        sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', lineHeight: 1.7, px: 2, py: 1.5, maxHeight: { xs: '40vh', md: '70vh' }, overflowY: 'auto' }}
      >
        {text.trim() === '' ? <Typography color="text.secondary">No text was read from this submission.</Typography> : text}
      </Box>
    </Box>
  );
}

/**
 * A prompt result: the AI's free-form feedback, rendered from a safe Markdown subset. A teacher
 * edits it as formatted text (the shared Markdown editor) with the student's work beside it; it
 * is saved as they go (and at once with Save feedback) with `PUT promptFunctionResult/update`.
 */
export function PromptReview({ result, text, readOnly = false, onChanged }: ResultReviewProps) {
  const mutation = useUpdatePromptFeedback();
  const { showToast } = useToast();
  const [saved, setSaved] = useState<{ from: string; to: string } | null>(null);
  const feedback = saved && saved.from === result.feedback ? saved.to : result.feedback;
  const [draft, setDraft] = useState(feedback);
  const [base, setBase] = useState(feedback);
  // Saved as the teacher types (once typing stops, when the editor or the screen is left) and
  // with the Save button at once; the timer's saves come without a toast.
  const autosave = useAutosave<string>(async (changes, { quiet, keepalive }) => {
    const to = changes.get('feedback') ?? feedback;
    try {
      await mutation.mutateAsync({ functionResultId: result._id, submissionId: result.submission, feedback: to, keepalive });
      setSaved({ from: result.feedback, to });
      if (!quiet) showToast({ type: 'success', message: FEEDBACK_UPDATED_MESSAGE });
      onChanged?.();
      return true;
    } catch {
      showToast({ type: 'error', message: FEEDBACK_UPDATE_FAILED_MESSAGE });
      return false;
    }
  });
  if (feedback !== base) {
    // A newer saved text: the editor starts from it, unless the teacher has typed since.
    setBase(feedback);
    if (draft === base) setDraft(feedback);
  }

  if (readOnly) {
    return (
      <Stack spacing={2}>
        {feedback.trim() === '' ? <Typography color="text.secondary">No feedback yet.</Typography> : <MarkdownText source={feedback} />}
        <SubmissionText text={text} />
      </Stack>
    );
  }

  const onDraft = (markdown: string) => {
    setDraft(markdown);
    if (markdown === feedback) autosave.discard('feedback');
    else autosave.change('feedback', markdown);
  };

  return (
    <Box
      sx={{
        display: 'grid',
        // Side by side where there is room (the work on the left, as on paper), stacked on a phone.
        gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) minmax(0, 1fr)' },
        gap: 2,
        alignItems: 'start',
      }}
    >
      <StudentWork text={text} />
      <Stack spacing={1.5} sx={{ minWidth: 0 }}>
        <Box onBlur={() => autosave.flush()}>
          <MarkdownEditor label="Feedback" title="Feedback" value={draft} onChange={onDraft} minHeight={200} maxHeight="60vh" />
        </Box>
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', alignItems: 'center' }}>
          <SaveStatus status={autosave.status} onRetry={() => autosave.flush()} />
          {draft !== feedback && (
            <Button
              onClick={() => {
                autosave.discard('feedback');
                setDraft(feedback);
              }}
              disabled={mutation.isPending}
            >
              Discard
            </Button>
          )}
          <Button variant="contained" onClick={() => autosave.flush()} disabled={draft === feedback} loading={mutation.isPending}>
            Save feedback
          </Button>
        </Stack>
      </Stack>
    </Box>
  );
}
