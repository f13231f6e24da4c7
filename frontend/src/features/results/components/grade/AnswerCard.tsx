import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { answerScore, formatPoints, isPartsOnly, questionMax, withParts, type GradeNode } from '../../lib/answers';
import { AnswerFields, type AnswerFieldsProps } from './AnswerFields';
import { CriteriaList } from './CriteriaList';

/** Props for {@link AnswerCard}. */
export interface AnswerCardProps {
  node: GradeNode;
  /** This is the answer the number keys act on. */
  current: boolean;
  readOnly?: boolean;
  /** The teacher clicked or focused something in the card. */
  onActivate: () => void;
  onToggle: (criterionIndex: number) => void;
  /** A field's typed value (null: back to the saved one), saved once typing stops. */
  onDraft: AnswerFieldsProps['onDraft'];
  /** A field was left (or Enter pressed in the adjustment): save now. */
  onLeave: () => void;
}

/** The pictures of a handwritten answer, cut from its pages. */
function AnswerPictures({ urls, label }: { urls: string[]; label: string }) {
  if (urls.length === 0) return null;
  return (
    <Box sx={{ display: 'grid', gap: 1 }}>
      {urls.map((url, i) => (
        <Box
          key={url}
          component="img"
          src={url}
          alt={urls.length === 1 ? `Answer to question ${label}` : `Answer to question ${label}, part ${i + 1}`}
          loading="lazy"
          sx={{ maxWidth: '100%', border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'common.white' }}
        />
      ))}
    </Box>
  );
}

/**
 * One answer of a grade result: the question, a handwritten answer's picture, the criteria to
 * tick, the grade adjustment and the feedback. Subquestions are indented (lightly) under their
 * parent. A question with no criteria of its own but parts shows its parts' subtotal and only its
 * feedback: nothing to tick or adjust there.
 */
export function AnswerCard({ node, current, readOnly = false, onActivate, onToggle, onDraft, onLeave }: AnswerCardProps) {
  const headingId = useId();
  const { answer, question, label, path } = node;
  const criteria = question?.criteria ?? [];
  const max = questionMax(question);
  const scored = answerScore(answer.grade, max);
  // A question with parts: its own criteria here, and the whole as the assignment page counts it.
  const whole = answer.subanswers.length > 0 ? withParts(node) : null;
  // A question of parts only (no criteria of its own): its score is its parts', which carry the
  // criteria and adjustments; it keeps only its feedback.
  const partsOnly = whole !== null && isPartsOnly(node);
  const shown = partsOnly ? whole : { scored, max };
  const scoreLabel = partsOnly
    ? `${formatPoints(whole.scored)} of ${formatPoints(whole.max)} points with its parts`
    : `${formatPoints(scored)} of ${formatPoints(max)} points${whole ? ' for its own criteria' : ''}`;

  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby={headingId}
      aria-current={current ? 'step' : undefined}
      onFocusCapture={onActivate}
      onPointerDown={onActivate}
      sx={{
        p: { xs: 1.5, sm: 2 },
        // A light indent per level, so a third-level answer keeps room for its fields.
        ml: { xs: (path.length - 1) * 1, sm: (path.length - 1) * 2 },
        // The fields inside lay out by the card's own width, not the window's (see AnswerFields).
        container: 'answer-card / inline-size',
        borderColor: current ? 'primary.main' : undefined,
        boxShadow: current ? (theme) => `inset 3px 0 0 ${theme.palette.primary.main}` : undefined,
        display: 'grid',
        gap: 1.5,
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'baseline', justifyContent: 'space-between', gap: 1 }}>
        <Typography id={headingId} variant="h6" component="h3">
          Question {label}
        </Typography>
        <Typography
          variant="body2"
          sx={{ fontWeight: 600, fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}
          aria-label={scoreLabel}
        >
          {formatPoints(shown.scored)} / {formatPoints(shown.max)}
        </Typography>
      </Box>
      {partsOnly && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: -1 }}>
          With its parts: their criteria and adjustments are below.
        </Typography>
      )}
      {whole && !partsOnly && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: -1 }}>
          {`With its parts: ${formatPoints(whole.scored)} / ${formatPoints(whole.max)} (the score above is its own criteria's).`}
        </Typography>
      )}
      {question?.questionText && (
        <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {question.questionText}
        </Typography>
      )}
      <AnswerPictures urls={answer.signedAnswerMedia ?? []} label={label} />
      {!partsOnly && (
        <CriteriaList label={label} criteria={criteria} met={answer.grade.criteria} readOnly={readOnly} showKeys={current && !readOnly} onToggle={onToggle} />
      )}
      <AnswerFields
        adjustable={!partsOnly}
        label={label}
        gradeAdjustment={answer.grade.gradeAdjustment}
        points={answer.grade.points}
        max={max}
        feedback={answer.grade.feedback}
        readOnly={readOnly}
        onDraft={onDraft}
        onLeave={onLeave}
      />
    </Paper>
  );
}
