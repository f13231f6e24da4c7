import ErrorOutlineRounded from '@mui/icons-material/ErrorOutlineRounded';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, type ReactNode } from 'react';
import type { StudentSubmission } from '../api/types';

/** A card with a title, a line and an indeterminate progress bar: the work is being read or graded. */
export function Waiting({ title, description, label }: { title: string; description: string; label: string }) {
  return (
    <Card>
      <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
        <Typography component="p" variant="h3" sx={{ fontSize: '1.25rem', mb: 1 }}>
          {title}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {description}
        </Typography>
        <LinearProgress aria-label={label} />
      </CardContent>
    </Card>
  );
}

/** The work is being read (text extraction). */
export function BeingRead() {
  return (
    <Waiting
      title="Your work is being read…"
      description="This usually takes under a minute. Keep this page open: it updates by itself."
      label="Reading your work"
    />
  );
}

/** The AI is grading or annotating the work. */
export function BeingGraded() {
  return (
    <Waiting
      title="Your work is being graded…"
      description="Your feedback usually arrives within a minute or two. Keep this page open: it updates by itself."
      label="Grading your work"
    />
  );
}

/**
 * `reason` as a sentence to follow with another: a full stop is added unless it already ends with
 * one, a "?", "!" or "…" (before any closing quote or bracket).
 */
export function asSentence(reason: string): string {
  const text = reason.trim();
  return /[.!?…]["'”’)\]]*$/.test(text) ? text : `${text}.`;
}

/** The work could not be read at all. */
export function ReadFailed({ error }: { error: string }) {
  const reason = error.trim() === '' ? 'The file could not be read.' : asSentence(error);
  return (
    <Alert severity="error" variant="outlined" icon={<ErrorOutlineRounded />} sx={{ bgcolor: 'background.paper' }}>
      <AlertTitle>We couldn't read your work</AlertTitle>
      {reason} Ask your teacher what to do next.
    </Alert>
  );
}

/** Grading ended without feedback: said kindly, without the teacher-facing reason. */
export function GradingFailed() {
  return (
    <Alert severity="warning" variant="outlined" sx={{ bgcolor: 'background.paper' }}>
      <AlertTitle>Your feedback isn't ready</AlertTitle>
      Something went wrong while your work was being graded. Your work is safe: your teacher has it and can grade it
      again.
    </Alert>
  );
}

/** A titled card of the result page. */
export function ResultCard({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children: ReactNode }) {
  const headingId = useId();
  return (
    <Card component="section" aria-labelledby={headingId}>
      <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
        <Typography id={headingId} variant="h2" sx={{ fontSize: '1.25rem', mb: subtitle ? 0.5 : 2 }}>
          {title}
        </Typography>
        {subtitle && (
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2, overflowWrap: 'anywhere' }}>
            {subtitle}
          </Typography>
        )}
        {children}
      </CardContent>
    </Card>
  );
}

/** The student's work as plain text, with a note above it (e.g. when feedback will come). */
export function ReadWork({ submission, note }: { submission: StudentSubmission; note?: ReactNode }) {
  const text = submission.text ?? '';
  return (
    <Stack spacing={2}>
      {note}
      {submission.error && (
        <Alert severity="warning" variant="outlined" sx={{ bgcolor: 'background.paper' }}>
          {submission.error}
        </Alert>
      )}
      <ResultCard
        title="Your work"
        subtitle={
          <>
            {submission.name}
            {submission.pageCount > 0 && ` · ${submission.pageCount} ${submission.pageCount === 1 ? 'page' : 'pages'}`}
          </>
        }
      >
        {text.trim() === '' ? (
          <Typography color="text.secondary">No text was found in your file.</Typography>
        ) : (
          <Box sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', lineHeight: 1.7, maxHeight: '70vh', overflowY: 'auto' }}>
            {text}
          </Box>
        )}
      </ResultCard>
    </Stack>
  );
}

/** Said while no feedback has been made on an assignment with instant feedback. */
export const FEEDBACK_WHEN_GRADED_MESSAGE = "Your work was received. Feedback will appear on this page when your teacher's AI grading runs.";

/**
 * Said while no feedback has been made on an assignment without instant feedback: the student
 * sees it only once the teacher releases it, not when the AI has graded it.
 */
export const FEEDBACK_WHEN_RELEASED_MESSAGE = 'Your work was received. Your feedback will appear on this page once your teacher releases it.';

/**
 * The note above the work while no feedback has been made: with instant feedback the AI's result
 * shows as soon as it is made; without, only once the teacher releases it. message, when the
 * server gave one (instant feedback waits for the teacher: the team's AI budget is spent), says
 * so instead.
 */
export function FeedbackLater({ message, instant = false }: { message?: string; instant?: boolean }) {
  return (
    <Alert severity="info" variant="outlined" sx={{ bgcolor: 'background.paper' }}>
      {message ?? (instant ? FEEDBACK_WHEN_GRADED_MESSAGE : FEEDBACK_WHEN_RELEASED_MESSAGE)}
    </Alert>
  );
}
