import InfoOutlined from '@mui/icons-material/InfoOutlined';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { adjustmentBounds, formatPoints } from '../../lib/answers';

/** Props for {@link AnswerFields}. */
export interface AnswerFieldsProps {
  /** The answer's label ("1b"), naming the fields for screen readers. */
  label: string;
  gradeAdjustment: number;
  /** What the ticked criteria give this answer. */
  points: number;
  /** What the question's own criteria are worth: the answer scores within 0 and this. */
  max: number;
  feedback: string;
  readOnly?: boolean;
  /** Saves a change; called when a field is left (or Enter is pressed in the adjustment). */
  onCommit: (edit: { gradeAdjustment?: number; feedback?: string }) => void;
}

function signed(points: number): string {
  return points > 0 ? `+${formatPoints(points)}` : points < 0 ? `−${formatPoints(-points)}` : '0';
}

/** Why an adjustment was capped, in a sentence, or null when it was kept as typed. */
export function cappedReason(label: string, typed: number, points: number, max: number): string | null {
  const { min, max: most } = adjustmentBounds(points, max);
  if (typed > most) {
    if (max === 0) return `Capped at 0: question ${label} has no points of its own, so adjust its parts instead.`;
    return `Capped at ${signed(most)}: question ${label} is worth ${formatPoints(max)} ${max === 1 ? 'point' : 'points'}, and an adjustment cannot take it past that.`;
  }
  if (typed < min) return `Capped at ${signed(min)}: an adjustment cannot take question ${label} below 0.`;
  return null;
}

/**
 * An answer's grade adjustment (points added to or taken from what the criteria give) and its
 * feedback. Each is saved when the teacher leaves the field; a newer saved value replaces the
 * field's text unless the teacher is editing it. The answer scores within 0 and the question's
 * maximum, as on the server: an adjustment past that is saved capped, and a line says why.
 */
export function AnswerFields({ label, gradeAdjustment, points, max, feedback, readOnly = false, onCommit }: AnswerFieldsProps) {
  const cappedId = useId();
  const [adjustment, setAdjustment] = useState(String(gradeAdjustment));
  const [text, setText] = useState(feedback);
  const [base, setBase] = useState({ gradeAdjustment, feedback });
  const [invalid, setInvalid] = useState(false);
  const [capped, setCapped] = useState<string | null>(null);
  if (base.gradeAdjustment !== gradeAdjustment || base.feedback !== feedback) {
    setBase({ gradeAdjustment, feedback });
    if (base.gradeAdjustment !== gradeAdjustment) setAdjustment(String(gradeAdjustment));
    if (base.feedback !== feedback) setText(feedback);
  }

  const commitAdjustment = () => {
    const typed = adjustment.trim() === '' ? 0 : Number(adjustment);
    if (!Number.isFinite(typed)) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    const { min, max: most } = adjustmentBounds(points, max);
    const value = Math.min(Math.max(typed, min), most);
    setCapped(cappedReason(label, typed, points, max));
    if (value !== typed) setAdjustment(String(value));
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
        onChange={(e) => {
          setAdjustment(e.target.value);
          setCapped(null);
        }}
        onBlur={commitAdjustment}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commitAdjustment();
        }}
        slotProps={{
          htmlInput: {
            step: 0.5,
            inputMode: 'decimal',
            'aria-label': `Grade adjustment for question ${label}`,
            ...(capped ? { 'aria-describedby': cappedId } : {}),
          },
        }}
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
      {capped && !readOnly && (
        <Typography
          id={cappedId}
          role="status"
          variant="body2"
          color="text.secondary"
          sx={{ gridColumn: '1 / -1', display: 'flex', gap: 0.75, alignItems: 'flex-start', mt: -0.5 }}
        >
          <InfoOutlined fontSize="small" color="info" aria-hidden="true" sx={{ mt: '1px' }} />
          {capped}
        </Typography>
      )}
    </Box>
  );
}
