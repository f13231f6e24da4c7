import AddRounded from '@mui/icons-material/AddRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useToast } from '../../../../components/toast';
import { errorMessage } from '../../../../lib/api-client';
import { useRubricList } from '../../../../lib/rubrics';
import { useSuggestCriteria } from '../../api/suggest-criteria';
import { pointsLabel } from '../../lib/labels';
import {
  addSubquestion,
  criterionDrafts,
  moveAt,
  newQuestion,
  questionDrafts,
  questionsProblem,
  removeAt,
  toApiQuestions,
  totalPoints,
  updateAt,
  updateById,
  type QuestionDraft,
  type QuestionPath,
} from '../../lib/questions';
import type { EditorProps } from '../edit/editor-props';
import { HANDWRITTEN_HELP, INSTANT_FEEDBACK_HELP } from '../wizard/NameField';
import { SettingSwitch } from '../wizard/SettingSwitch';
import { QuestionEditor, type QuestionTreeActions } from './QuestionEditor';
import { SUGGEST_CRITERIA_FAILED } from './GradeWizard';

/**
 * A saved grade assignment's switches and question tree, in the wizard's question editors: add,
 * remove and reorder questions, change criteria and points. Saved questions keep their ids, so a
 * result's ticks follow them.
 */
export function GradeEditor({ fn, settings, onSettings, onChange }: EditorProps) {
  const { showToast } = useToast();
  const [questions, setQuestions] = useState<QuestionDraft[]>(() => questionDrafts(fn.questions ?? []));
  const [addedId, setAddedId] = useState<string | null>(null);
  const [suggestingId, setSuggestingId] = useState<string | null>(null);
  const rubricsQuery = useRubricList();
  const rubrics = useMemo(() => rubricsQuery.data ?? [], [rubricsQuery.data]);
  const { mutateAsync: suggestCriteria } = useSuggestCriteria();

  useEffect(() => {
    onChange({ input: { questions: toApiQuestions(questions) }, problem: questionsProblem(questions) });
  }, [questions, onChange]);

  const onSuggestCriteria = useCallback(
    async (question: QuestionDraft) => {
      if (question.questionText.trim() === '') {
        showToast({ type: 'warning', message: 'Please enter the question first.' });
        return;
      }
      setSuggestingId(question.id);
      try {
        const criteria = await suggestCriteria({ question: question.questionText.trim(), context: question.context.trim() });
        const have = new Set(question.criteria.map((c) => c.description.trim().toLowerCase()));
        const fresh = criteria.filter((c) => !have.has(c.description.trim().toLowerCase()));
        if (fresh.length === 0) {
          showToast({ type: 'warning', message: 'No new criteria to suggest for this question.' });
          return;
        }
        setQuestions((qs) => updateById(qs, question.id, (q) => ({ ...q, criteria: [...q.criteria, ...criterionDrafts(fresh)] })));
      } catch (error) {
        showToast({ type: 'error', message: errorMessage(error, SUGGEST_CRITERIA_FAILED) });
      } finally {
        setSuggestingId(null);
      }
    },
    [showToast, suggestCriteria],
  );

  const rubricOptions = useMemo(
    () => ({ rubrics, loading: rubricsQuery.isPending, failed: rubricsQuery.isError }),
    [rubrics, rubricsQuery.isPending, rubricsQuery.isError],
  );
  const actions = useMemo<QuestionTreeActions>(
    () => ({
      update: (path: QuestionPath, update) => setQuestions((qs) => updateAt(qs, path, update)),
      remove: (path) => setQuestions((qs) => removeAt(qs, path)),
      move: (path, delta) => setQuestions((qs) => moveAt(qs, path, delta)),
      addSubquestion: (path) => {
        const added = newQuestion();
        setAddedId(added.id);
        setQuestions((qs) => addSubquestion(qs, path, added));
      },
      suggestCriteria: (question) => void onSuggestCriteria(question),
      suggestingId,
      rubricOptions,
      addedId,
    }),
    [onSuggestCriteria, suggestingId, rubricOptions, addedId],
  );

  function addQuestion() {
    const added = newQuestion();
    setAddedId(added.id);
    setQuestions((qs) => [...qs, added]);
  }

  return (
    <Stack spacing={2.5}>
      <SettingSwitch
        label="Handwritten"
        description={HANDWRITTEN_HELP}
        checked={settings.isHandWritten}
        onChange={(isHandWritten) => onSettings({ ...settings, isHandWritten })}
      />
      <SettingSwitch
        label="Instant feedback for students"
        description={INSTANT_FEEDBACK_HELP}
        checked={settings.provideInstantFeedback}
        onChange={(provideInstantFeedback) => onSettings({ ...settings, provideInstantFeedback })}
      />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', justifyContent: 'space-between', gap: 1 }}>
        <Typography variant="h2" sx={{ fontSize: { xs: '1.25rem', sm: '1.375rem' } }}>
          Questions and criteria
        </Typography>
        <Typography aria-live="polite" sx={{ fontWeight: 600 }}>
          Total: {pointsLabel(totalPoints(questions))}
        </Typography>
      </Box>
      {questions.map((q, i) => (
        <QuestionEditor key={q.id} question={q} path={[i]} siblingCount={questions.length} actions={actions} />
      ))}
      <Box>
        <Button variant="outlined" startIcon={<AddRounded />} onClick={addQuestion}>
          Add question
        </Button>
      </Box>
    </Stack>
  );
}
