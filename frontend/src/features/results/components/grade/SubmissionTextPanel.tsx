import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useId } from 'react';

/** The submission's text beside its answers: plain text, scrolling on its own on a wide screen. */
export function SubmissionTextPanel({ text, title = 'Submission text' }: { text: string; title?: string }) {
  const headingId = useId();
  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby={headingId}
      sx={{ p: { xs: 1.5, sm: 2 }, position: { md: 'sticky' }, top: { md: 16 }, maxHeight: { md: 'calc(100dvh - 120px)' }, overflowY: { md: 'auto' } }}
    >
      <Typography id={headingId} variant="h6" component="h3" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {text.trim() === '' ? (
        <Typography color="text.secondary">No text was read from this submission.</Typography>
      ) : (
        // Always text: whatever the student wrote is shown, never run as markup.
        <Typography component="div" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', lineHeight: 1.7 }}>
          {text}
        </Typography>
      )}
    </Paper>
  );
}
