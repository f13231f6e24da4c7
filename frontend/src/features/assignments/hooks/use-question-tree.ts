import { useCallback, useMemo, useState } from 'react';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import { useRubricList } from '../../../lib/rubrics';
import { useSuggestCriteria } from '../api/suggest-criteria';
import type { QuestionTreeActions } from '../components/grade/QuestionEditor';
import {
  addSubquestion,
  criterionDrafts,
  moveAt,
  newQuestion,
  removeAt,
  updateAt,
  updateById,
  type QuestionDraft,
  type QuestionPath,
} from '../lib/questions';

/** The spec's message when the AI could not suggest criteria. */
export const SUGGEST_CRITERIA_FAILED = 'Failed to generate criteria.';

/**
 * A grade assignment's question tree as its editors change it, shared by the wizard and the
 * editor after creation: the drafts, the actions the question editors call (stable, so editors of
 * questions that did not change skip re-rendering), criteria suggested by the AI, and the team's
 * rubrics to pick from.
 */
export function useQuestionTree(initial: () => QuestionDraft[]) {
  const { showToast } = useToast();
  const [questions, setQuestions] = useState<QuestionDraft[]>(initial);
  const [addedId, setAddedId] = useState<string | null>(null);
  const [suggestingId, setSuggestingId] = useState<string | null>(null);
  const rubricsQuery = useRubricList();
  const rubrics = useMemo(() => rubricsQuery.data ?? [], [rubricsQuery.data]);
  const { mutateAsync: suggestCriteria } = useSuggestCriteria();

  const onSuggestCriteria = useCallback(
    async (question: QuestionDraft) => {
      if (question.questionText.trim() === '') {
        showToast({ type: 'warning', message: 'Please enter the question first.' });
        return;
      }
      setSuggestingId(question.id);
      try {
        const criteria = await suggestCriteria({ question: question.questionText.trim(), context: question.context.trim() });
        // Suggestions the question already has (same wording) are not added twice.
        const have = new Set(question.criteria.map((c) => c.description.trim().toLowerCase()));
        const fresh = criteria.filter((c) => !have.has(c.description.trim().toLowerCase()));
        if (fresh.length === 0) {
          showToast({
            type: 'warning',
            message: criteria.length === 0 ? 'The AI suggested no criteria for this question.' : 'No new criteria to suggest for this question.',
          });
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

  const addQuestion = useCallback(() => {
    const added = newQuestion();
    setAddedId(added.id);
    setQuestions((qs) => [...qs, added]);
  }, []);

  return { questions, setQuestions, actions, addQuestion, rubrics };
}
