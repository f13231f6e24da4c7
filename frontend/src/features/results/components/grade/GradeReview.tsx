import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useToast } from '../../../../components/toast';
import { errorMessage } from '../../../../lib/api-client';
import { functionResultKeys } from '../../api/keys';
import { useToggleCriterion } from '../../api/toggle-criterion';
import type { FunctionResult } from '../../api/types';
import { useAutosave } from '../../hooks/use-autosave';
import { useResultEdit } from '../../hooks/use-result-edit';
import { useShortcuts } from '../../hooks/use-shortcuts';
import { answerAt, answersTotal, editAnswer, formatPoints, gradeNodes, maxPointsOf, pathKey, type GradeNode } from '../../lib/answers';
import type { ResultReviewProps } from '../../lib/definition';
import { SaveStatus } from '../review/SaveStatus';
import { AnswerCard } from './AnswerCard';
import { SubmissionTextPanel } from './SubmissionTextPanel';

const DIGITS = ['1', '2', '3', '4', '5', '6', '7', '8', '9'] as const;

/** Props of {@link OverallFeedback}. */
interface OverallFeedbackProps {
  value: string;
  readOnly: boolean;
  /** The text as typed (null: back to the saved text), saved once typing stops. */
  onDraft: (feedback: string | null) => void;
  /** The field was left: save now. */
  onLeave: () => void;
}

function OverallFeedback({ value, readOnly, onDraft, onLeave }: OverallFeedbackProps) {
  const [text, setText] = useState(value);
  const [base, setBase] = useState(value);
  if (value !== base) {
    // A newer saved text replaces the field's, unless the teacher has typed since.
    setBase(value);
    if (text === base) setText(value);
  }
  return (
    <TextField
      label="Overall feedback"
      multiline
      minRows={3}
      value={text}
      disabled={readOnly}
      onChange={(e) => {
        setText(e.target.value);
        onDraft(e.target.value === value ? null : e.target.value);
      }}
      onBlur={onLeave}
    />
  );
}

/** A typed change of a grade result: an answer's adjustment or feedback, or the overall feedback (no path). */
interface GradeChange {
  path: readonly number[] | null;
  change: { gradeAdjustment?: number; feedback?: string };
}

/**
 * A grade result beside the submission: each answer with its criteria to tick (with the mouse, or
 * the keys 1–9 on the current answer), its grade adjustment and feedback, and the total. Ticks
 * save at once; typed changes save as the teacher goes: shortly after typing stops, when a field
 * is left, and when the screen or the page is left (see {@link useAutosave}). Both show in one
 * save status.
 */
export function GradeReview({ result, fn, text, readOnly = false, onChanged }: ResultReviewProps) {
  const { showToast } = useToast();
  const queryClient = useQueryClient();
  const nodes = useMemo(() => gradeNodes(result.answers, fn.questions), [result.answers, fn.questions]);
  const [currentKey, setCurrentKey] = useState<string | null>(null);
  const current = nodes.find((n) => pathKey(n.path) === currentKey) ?? nodes.find((n) => (n.question?.criteria.length ?? 0) > 0) ?? nodes[0];
  const toggle = useToggleCriterion(onChanged);
  const edit = useResultEdit(result.submission, fn._id, onChanged);
  const pictures = nodes.some((n) => (n.answer.signedAnswerMedia ?? []).length > 0);

  /** Whether the result as last read (the ticks on screen) meets a criterion. */
  const isMet = (path: readonly number[], criterionIndex: number) => {
    const latest = queryClient.getQueryData<FunctionResult>(functionResultKeys.detail(result.submission)) ?? result;
    return answerAt(latest.answers, path)?.grade.criteria[criterionIndex] === true;
  };

  // A tick saves at once, through the same status as typed changes: "Saving…" until the server
  // answers, "Saved" once it has; a failed tick is flipped back and kept, and Retry ticks it again.
  const onToggle = (node: GradeNode, criterionIndex: number) => {
    const criterion = node.question?.criteria[criterionIndex];
    if (readOnly || !criterion) return;
    setCurrentKey(pathKey(node.path));
    const met = !isMet(node.path, criterionIndex);
    autosave.run(`tick ${pathKey(node.path)} ${criterionIndex}`, async ({ keepalive }) => {
      // Sent again after a failure: nothing to do if the result already says what the teacher chose.
      if (isMet(node.path, criterionIndex) === met) return true;
      try {
        await toggle.mutateAsync({
          submissionId: result.submission,
          gradeFunctionId: result._id,
          questionIndexPath: node.path,
          criterionIndex,
          questionsCriterion: { description: criterion.description, points: criterion.points },
          keepalive,
        });
        return true;
      } catch (error) {
        showToast({ type: 'error', message: errorMessage(error, "We couldn't change that criterion. Please try again.") });
        return false;
      }
    });
  };

  // Typed changes go through the same save as any edit: applied to the result as last read (a
  // tick meanwhile stays), sent whole, and kept on screen to save again if it fails.
  const autosave = useAutosave<GradeChange>((changes, { keepalive }) => {
    const list = [...changes.values()];
    return edit.save({
      apply: (r) => list.reduce((acc, { path, change }) => (path ? editAnswer(acc, path, change) : { ...acc, ...change }), r),
      changes: (edited) => ({
        ...(list.some((c) => c.path) ? { answers: edited.answers } : {}),
        ...(list.some((c) => !c.path) ? { feedback: edited.feedback } : {}),
      }),
      keepalive,
    });
  });

  const onDraft = (node: GradeNode, field: 'gradeAdjustment' | 'feedback', change: GradeChange['change'] | null) => {
    const key = `${pathKey(node.path)} ${field}`;
    if (change) autosave.change(key, { path: node.path, change });
    else autosave.discard(key);
  };

  const onOverall = (feedback: string | null) => {
    if (feedback === null) autosave.discard('overall');
    else autosave.change('overall', { path: null, change: { feedback } });
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
          {!readOnly && <SaveStatus status={autosave.status} idle="Changes save as you go" onRetry={() => autosave.flush()} />}
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
              onDraft={(field, change) => onDraft(node, field, change)}
              onLeave={() => autosave.flush()}
            />
          ))
        )}
        <OverallFeedback value={result.feedback} readOnly={readOnly} onDraft={onOverall} onLeave={() => autosave.flush()} />
      </Stack>
    </Box>
  );
}
