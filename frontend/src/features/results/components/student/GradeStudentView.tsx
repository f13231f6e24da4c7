import CheckCircleRounded from '@mui/icons-material/CheckCircleRounded';
import RadioButtonUncheckedRounded from '@mui/icons-material/RadioButtonUncheckedRounded';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, useMemo } from 'react';
import { answersTotal, formatPoints, gradeNodes, isPartsOnly, maxPointsOf, questionMax, withParts, type GradeNode } from '../../lib/answers';
import type { ResultReviewProps } from '../../lib/definition';
import { SubmissionTextPanel } from '../grade/SubmissionTextPanel';

function points(n: number): string {
  return `${formatPoints(n)} ${Math.abs(n) === 1 ? 'point' : 'points'}`;
}

/** A paragraph of feedback under a heading, only when there is some. */
function Feedback({ title, text }: { title: string; text: string }) {
  if (text.trim() === '') return null;
  return (
    <Box sx={{ borderLeft: 3, borderColor: 'primary.main', pl: 1.5 }}>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {title}
      </Typography>
      {/* Always text: the feedback is shown as written, never run as markup. */}
      <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{text}</Typography>
    </Box>
  );
}

/** One answer as the student reads it: the points earned per criterion, an adjustment if any, the feedback. */
function StudentAnswer({ node }: { node: GradeNode }) {
  const headingId = useId();
  const { answer, question, label, path } = node;
  const criteria = question?.criteria ?? [];
  // A question of parts only (no criteria of its own) scores what its parts score.
  const whole = isPartsOnly(node) ? withParts(node) : null;
  const max = whole ? whole.max : questionMax(question);
  const scored = whole ? whole.scored : answer.grade.points + answer.grade.gradeAdjustment;
  const adjustment = whole ? 0 : answer.grade.gradeAdjustment;
  const pictures = answer.signedAnswerMedia ?? [];

  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby={headingId}
      sx={{ p: { xs: 1.5, sm: 2 }, ml: { xs: (path.length - 1) * 1.5, sm: (path.length - 1) * 3 }, display: 'grid', gap: 1.25 }}
    >
      <Box sx={{ display: 'flex', alignItems: 'baseline', justifyContent: 'space-between', gap: 1 }}>
        <Typography id={headingId} variant="h6" component="h3">
          Question {label}
        </Typography>
        <Typography
          sx={{ fontWeight: 600, fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}
          aria-label={whole ? `${formatPoints(scored)} of ${points(max)} with its parts` : undefined}
        >
          {formatPoints(scored)} / {points(max)}
        </Typography>
      </Box>
      {whole && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: -0.75 }}>
          With its parts below.
        </Typography>
      )}
      {question?.questionText && (
        <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {question.questionText}
        </Typography>
      )}
      {pictures.map((url, i) => (
        <Box
          key={url}
          component="img"
          src={url}
          alt={pictures.length === 1 ? `Your answer to question ${label}` : `Your answer to question ${label}, part ${i + 1}`}
          loading="lazy"
          sx={{ maxWidth: '100%', border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'common.white' }}
        />
      ))}
      {criteria.length > 0 && (
        <Box component="ul" aria-label={`Points for question ${label}`} sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 0.75 }}>
          {criteria.map((criterion, index) => {
            const met = answer.grade.criteria[index] === true;
            return (
              <Box component="li" key={index} sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
                {met ? (
                  <CheckCircleRounded aria-hidden="true" sx={{ fontSize: 20, mt: '2px', color: 'success.main' }} />
                ) : (
                  <RadioButtonUncheckedRounded aria-hidden="true" sx={{ fontSize: 20, mt: '2px', color: 'text.disabled' }} />
                )}
                <Typography component="span" sx={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
                  {criterion.description.trim() || `Criterion ${index + 1}`}
                </Typography>
                <Typography
                  component="span"
                  sx={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums', fontWeight: met ? 600 : 400, color: met ? 'text.primary' : 'text.secondary' }}
                >
                  {met ? `+${points(criterion.points)}` : `0 of ${formatPoints(criterion.points)}`}
                  <Box component="span" sx={visuallyHidden}>
                    {met ? ' (met)' : ' (not met)'}
                  </Box>
                </Typography>
              </Box>
            );
          })}
        </Box>
      )}
      {adjustment !== 0 && (
        <Typography variant="body2" color="text.secondary">
          Your teacher adjusted this question by {adjustment > 0 ? '+' : '−'}
          {points(Math.abs(adjustment))}.
        </Typography>
      )}
      <Feedback title="Feedback" text={answer.grade.feedback} />
    </Paper>
  );
}

/**
 * A grade result as its student sees it: no controls, only what they need to read — the total,
 * the points earned for each criterion of each question (and a teacher's adjustment when there
 * is one), the feedback per question and overall, beside their own text.
 */
export function GradeStudentView({ result, fn, text }: ResultReviewProps) {
  const nodes = useMemo(() => gradeNodes(result.answers, fn.questions), [result.answers, fn.questions]);
  const pictures = nodes.some((n) => (n.answer.signedAnswerMedia ?? []).length > 0);
  const total = result.totalPoints ?? answersTotal(result.answers);
  const max = result.maxPoints ?? maxPointsOf(fn.questions);

  return (
    <Stack spacing={2}>
      <Box
        sx={{ display: 'inline-flex', alignSelf: 'flex-start', alignItems: 'baseline', gap: 1, px: 2, py: 1, borderRadius: '10px', bgcolor: 'rgba(23, 97, 107, 0.08)' }}
      >
        <Typography component="span" sx={{ fontWeight: 600 }}>
          Your score
        </Typography>
        <Typography component="span" sx={{ fontSize: '1.5rem', fontWeight: 700, fontVariantNumeric: 'tabular-nums' }}>
          {formatPoints(total)} / {formatPoints(max)}
        </Typography>
      </Box>
      <Feedback title="Overall feedback" text={result.feedback} />
      <Box sx={{ display: 'grid', gap: 2, alignItems: 'start', gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) minmax(0, 1fr)' } }}>
        <Stack spacing={1.5} useFlexGap component="section" aria-label="Your answers">
          {nodes.length === 0 ? (
            <Typography color="text.secondary">No answers have been graded yet.</Typography>
          ) : (
            nodes.map((node) => <StudentAnswer key={node.path.join('.')} node={node} />)
          )}
        </Stack>
        {(!pictures || text.trim() !== '') && <SubmissionTextPanel text={text} title={pictures ? 'Your answers as read' : 'Your work'} />}
      </Box>
    </Stack>
  );
}

const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  p: 0,
  m: '-1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
} as const;
