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
  /** False leaves out the adjustment (a question of parts only: its parts are adjusted). */
  adjustable?: boolean;
  /**
   * A field's value as typed, to save once typing stops; null when there is nothing to save (the
   * saved value again, or an adjustment that is not a number yet).
   */
  onDraft: (field: 'gradeAdjustment' | 'feedback', edit: { gradeAdjustment?: number; feedback?: string } | null) => void;
  /** A field was left (or Enter pressed in the adjustment): save what is pending now. */
  onLeave: () => void;
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
 * feedback. Each is saved as the teacher types (once typing stops) and when the field is left; a
 * newer saved value replaces the field's text unless the teacher has typed since. The answer
 * scores within 0 and the question's maximum, as on the server: an adjustment past that is saved
 * capped, and once the field is left it shows the capped value and a line says why.
 */
export function AnswerFields({ label, gradeAdjustment, points, max, feedback, readOnly = false, adjustable = true, onDraft, onLeave }: AnswerFieldsProps) {
  const cappedId = useId();
  const [adjustment, setAdjustment] = useState(String(gradeAdjustment));
  const [text, setText] = useState(feedback);
  const [base, setBase] = useState({ gradeAdjustment, feedback });
  const [invalid, setInvalid] = useState(false);
  const [capped, setCapped] = useState<string | null>(null);
  if (base.gradeAdjustment !== gradeAdjustment || base.feedback !== feedback) {
    // What the teacher typed since the last saved value stays (it is on its way to be saved).
    setBase({ gradeAdjustment, feedback });
    if (base.gradeAdjustment !== gradeAdjustment && adjustment === String(base.gradeAdjustment)) setAdjustment(String(gradeAdjustment));
    if (base.feedback !== feedback && text === base.feedback) setText(feedback);
  }

  /** The adjustment to save for what is typed, capped as the server would. */
  const capToBounds = (typed: number) => {
    const { min, max: most } = adjustmentBounds(points, max);
    return Math.min(Math.max(typed, min), most);
  };

  const draftAdjustment = (value: string) => {
    const typed = Number(value);
    // Half-typed ("", "-"): nothing to save yet.
    if (value.trim() === '' || !Number.isFinite(typed)) return onDraft('gradeAdjustment', null);
    const capped = capToBounds(typed);
    onDraft('gradeAdjustment', capped === gradeAdjustment ? null : { gradeAdjustment: capped });
  };

  const commitAdjustment = () => {
    const typed = adjustment.trim() === '' ? 0 : Number(adjustment);
    if (!Number.isFinite(typed)) {
      setInvalid(true);
      onDraft('gradeAdjustment', null);
      onLeave();
      return;
    }
    setInvalid(false);
    const value = capToBounds(typed);
    setCapped(cappedReason(label, typed, points, max));
    if (value !== typed) setAdjustment(String(value));
    onDraft('gradeAdjustment', value === gradeAdjustment ? null : { gradeAdjustment: value });
    onLeave();
  };

  return (
    <Box
      sx={{
        display: 'grid',
        gap: 1.5,
        alignItems: 'start',
        // Feedback goes below the adjustment unless the answer's card (a container) is wide enough
        // for both side by side: a nested card in a narrow column keeps a readable feedback box.
        gridTemplateColumns: 'minmax(0, 1fr)',
        '@container answer-card (min-width: 30rem)': { gridTemplateColumns: adjustable ? '140px minmax(0, 1fr)' : 'minmax(0, 1fr)' },
      }}
    >
      {adjustable && (
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
            draftAdjustment(e.target.value);
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
      )}
      <TextField
        label="Feedback"
        size="small"
        multiline
        minRows={2}
        value={text}
        disabled={readOnly}
        onChange={(e) => {
          setText(e.target.value);
          onDraft('feedback', e.target.value === feedback ? null : { feedback: e.target.value });
        }}
        onBlur={onLeave}
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
