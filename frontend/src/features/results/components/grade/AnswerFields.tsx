import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import { useState } from 'react';

/** Props for {@link AnswerFields}. */
export interface AnswerFieldsProps {
  /** The answer's label ("1b"), naming the fields for screen readers. */
  label: string;
  gradeAdjustment: number;
  feedback: string;
  readOnly?: boolean;
  /** Saves a change; called when a field is left (or Enter is pressed in the adjustment). */
  onCommit: (edit: { gradeAdjustment?: number; feedback?: string }) => void;
}

/**
 * An answer's grade adjustment (points added to or taken from what the criteria give) and its
 * feedback. Each is saved when the teacher leaves the field; a newer saved value replaces the
 * field's text unless the teacher is editing it.
 */
export function AnswerFields({ label, gradeAdjustment, feedback, readOnly = false, onCommit }: AnswerFieldsProps) {
  const [adjustment, setAdjustment] = useState(String(gradeAdjustment));
  const [text, setText] = useState(feedback);
  const [base, setBase] = useState({ gradeAdjustment, feedback });
  const [invalid, setInvalid] = useState(false);
  if (base.gradeAdjustment !== gradeAdjustment || base.feedback !== feedback) {
    setBase({ gradeAdjustment, feedback });
    if (base.gradeAdjustment !== gradeAdjustment) setAdjustment(String(gradeAdjustment));
    if (base.feedback !== feedback) setText(feedback);
  }

  const commitAdjustment = () => {
    const value = adjustment.trim() === '' ? 0 : Number(adjustment);
    if (!Number.isFinite(value)) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    if (value !== gradeAdjustment) onCommit({ gradeAdjustment: value });
  };

  return (
    <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: '140px minmax(0, 1fr)' }, alignItems: 'start' }}>
      <TextField
        label="Adjustment"
        type="number"
        size="small"
        value={adjustment}
        disabled={readOnly}
        error={invalid}
        helperText={invalid ? 'Enter a number of points, e.g. -1 or 0.5.' : readOnly ? undefined : '± points'}
        onChange={(e) => setAdjustment(e.target.value)}
        onBlur={commitAdjustment}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commitAdjustment();
        }}
        slotProps={{ htmlInput: { step: 0.5, inputMode: 'decimal', 'aria-label': `Grade adjustment for question ${label}` } }}
      />
      <TextField
        label="Feedback"
        size="small"
        multiline
        minRows={2}
        value={text}
        disabled={readOnly}
        onChange={(e) => setText(e.target.value)}
        onBlur={() => {
          if (text !== feedback) onCommit({ feedback: text });
        }}
        slotProps={{ htmlInput: { 'aria-label': `Feedback for question ${label}` } }}
      />
    </Box>
  );
}
