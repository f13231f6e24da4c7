import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { useToast } from '../../../../components/toast';
import { errorMessage } from '../../../../lib/api-client';
import { useToggleCriterion } from '../../api/toggle-criterion';
import { useResultEdit } from '../../hooks/use-result-edit';
import { useShortcuts } from '../../hooks/use-shortcuts';
import { answerAt, answersTotal, editAnswer, formatPoints, gradeNodes, maxPointsOf, pathKey, type GradeNode } from '../../lib/answers';
import type { ResultReviewProps } from '../../lib/definition';
import { AnswerCard } from './AnswerCard';
import { SubmissionTextPanel } from './SubmissionTextPanel';

const DIGITS = ['1', '2', '3', '4', '5', '6', '7', '8', '9'] as const;

function OverallFeedback({ value, readOnly, onCommit }: { value: string; readOnly: boolean; onCommit: (feedback: string) => void }) {
  const [text, setText] = useState(value);
  const [base, setBase] = useState(value);
  if (value !== base) {
    setBase(value);
    setText(value);
  }
  return (
    <TextField
      label="Overall feedback"
      multiline
      minRows={3}
      value={text}
      disabled={readOnly}
      onChange={(e) => setText(e.target.value)}
      onBlur={() => {
        if (text !== value) onCommit(text);
      }}
    />
  );
}

/**
 * A grade result beside the submission: each answer with its criteria to tick (with the mouse, or
 * the keys 1–9 on the current answer), its grade adjustment and feedback, and the total. Ticks
 * save at once; the other fields save when the teacher leaves them.
 */
export function GradeReview({ result, fn, text, readOnly = false, onChanged }: ResultReviewProps) {
  const { showToast } = useToast();
  const nodes = useMemo(() => gradeNodes(result.answers, fn.questions), [result.answers, fn.questions]);
  const [currentKey, setCurrentKey] = useState<string | null>(null);
  const current = nodes.find((n) => pathKey(n.path) === currentKey) ?? nodes.find((n) => (n.question?.criteria.length ?? 0) > 0) ?? nodes[0];
  const toggle = useToggleCriterion(onChanged);
  const edit = useResultEdit(result.submission, fn._id, onChanged);
  const pictures = nodes.some((n) => (n.answer.signedAnswerMedia ?? []).length > 0);

  const onToggle = (node: GradeNode, criterionIndex: number) => {
    const criterion = node.question?.criteria[criterionIndex];
    if (readOnly || !criterion) return;
    setCurrentKey(pathKey(node.path));
    toggle
      .mutateAsync({
        submissionId: result.submission,
        gradeFunctionId: result._id,
        questionIndexPath: node.path,
        criterionIndex,
        questionsCriterion: { description: criterion.description, points: criterion.points },
      })
      .catch((error: unknown) => {
        showToast({ type: 'error', message: errorMessage(error, "We couldn't change that criterion. Please try again.") });
      });
  };

  const onCommit = (node: GradeNode, change: { gradeAdjustment?: number; feedback?: string }) => {
    const before = answerAt(result.answers, node.path)?.grade;
    if (!before) return;
    void edit.save({
      apply: (r) => editAnswer(r, node.path, change),
      revert: (r) =>
        editAnswer(r, node.path, {
          ...(change.gradeAdjustment !== undefined ? { gradeAdjustment: before.gradeAdjustment } : {}),
          ...(change.feedback !== undefined ? { feedback: before.feedback } : {}),
        }),
      changes: (edited) => ({ answers: edited.answers }),
    });
  };

  const onOverall = (feedback: string) => {
    const before = result.feedback;
    void edit.save({ apply: (r) => ({ ...r, feedback }), revert: (r) => ({ ...r, feedback: before }), changes: () => ({ feedback }) });
  };

  useShortcuts(
    Object.fromEntries(DIGITS.map((d, i) => [d, current ? () => onToggle(current, i) : undefined])),
    !readOnly,
  );

  const total = result.totalPoints ?? answersTotal(result.answers);
  const max = result.maxPoints ?? maxPointsOf(fn.questions);

  return (
    <Box sx={{ display: 'grid', gap: 2, alignItems: 'start', gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) minmax(0, 1fr)' } }}>
      {(!pictures || text.trim() !== '') && <SubmissionTextPanel text={text} title={pictures ? 'Transcribed text' : 'Submission text'} />}
      <Stack spacing={1.5} useFlexGap component="section" aria-label="Answers">
        <Paper variant="outlined" sx={{ px: 2, py: 1, display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Typography sx={{ fontWeight: 600 }} role="status" aria-live="polite">
            Total {formatPoints(total)} / {formatPoints(max)}
          </Typography>
          <Typography variant="body2" color="text.secondary" role="status" aria-live="polite">
            {edit.saving ? 'Saving…' : readOnly ? '' : 'Changes save as you go'}
          </Typography>
        </Paper>
        {nodes.length === 0 ? (
          <Typography color="text.secondary">No answers have been graded yet.</Typography>
        ) : (
          nodes.map((node) => (
            <AnswerCard
              key={pathKey(node.path)}
              node={node}
              current={!readOnly && node === current}
              readOnly={readOnly}
              onActivate={() => setCurrentKey(pathKey(node.path))}
              onToggle={(i) => onToggle(node, i)}
              onCommit={(change) => onCommit(node, change)}
            />
          ))
        )}
        <OverallFeedback value={result.feedback} readOnly={readOnly} onCommit={onOverall} />
      </Stack>
    </Box>
  );
}
