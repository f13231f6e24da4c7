import AddRounded from '@mui/icons-material/AddRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, useMemo, useState } from 'react';
import { useToast } from '../../../../components/toast';
import { useDocumentTitle } from '../../../../lib/use-document-title';
import type { SuggestedQuestion } from '../../api/suggest-questions';
import { useQuestionTree } from '../../hooks/use-question-tree';
import { useCreationWizard } from '../../hooks/use-creation-wizard';
import { pointsLabel } from '../../lib/labels';
import {
  questionsCount,
  criterionDrafts,
  isBlankQuestion,
  newQuestion,
  questionsProblem,
  toApiQuestions,
  totalPoints,
  type QuestionDraft,
} from '../../lib/questions';
import { DetailList } from '../view/DetailList';
import { QuestionTreeView } from '../view/QuestionTreeView';
import { LeavingSpinner } from '../wizard/LeavingSpinner';
import {
  HANDWRITTEN_HELP,
  INSTANT_FEEDBACK_HELP,
  NameField,
  nameProblem,
} from '../wizard/NameField';
import { SettingSwitch } from '../wizard/SettingSwitch';
import { WizardShell, type WizardStepInfo } from '../wizard/WizardShell';
import { QuestionEditor } from './QuestionEditor';
import { SuggestQuestionsPanel } from './SuggestQuestionsPanel';

/** Toast when the AI could not suggest criteria. */
export { SUGGEST_CRITERIA_FAILED } from '../../hooks/use-question-tree';

const STEPS: WizardStepInfo[] = [
  {
    label: 'Name and settings',
    title: 'Name your assignment',
    description: 'In a grade assignment the AI scores each answer against the criteria you set.',
  },
  {
    label: 'Questions',
    title: 'Questions and criteria',
    description: 'Add each question and the criteria the AI awards points for. Questions nest up to 3 levels.',
  },
  {
    label: 'Review',
    title: 'Review',
    description: 'Check the questions and points before you create the assignment.',
  },
];

function fromSuggestions(suggestions: SuggestedQuestion[]): QuestionDraft[] {
  return suggestions.map((s) => ({ ...newQuestion(s.question ?? ''), criteria: criterionDrafts(s.criteria ?? []) }));
}

/**
 * Route `/assignments/new/grade`: name and flags → the question tree (with AI help) → review →
 * create.
 */
export function GradeWizard() {
  useDocumentTitle('New grade assignment');
  const { showToast } = useToast();
  const [name, setName] = useState('');
  const [isHandWritten, setHandWritten] = useState(false);
  const [provideInstantFeedback, setInstantFeedback] = useState(false);
  const { questions, setQuestions, actions, addQuestion, rubrics } = useQuestionTree(() => [newQuestion()]);
  const [pendingSuggestions, setPendingSuggestions] = useState<QuestionDraft[] | null>(null);
  const totalId = useId();

  const rubricNames = useMemo(() => new Map(rubrics.map((r) => [r._id, r.name])), [rubrics]);

  const problems = [nameProblem(name), questionsProblem(questions), null];
  const [firstQuestion] = questions;
  const dirty =
    name.trim() !== '' ||
    isHandWritten ||
    provideInstantFeedback ||
    questions.length !== 1 ||
    !isBlankQuestion(firstQuestion) ||
    firstQuestion.criteria.length > 0 ||
    firstQuestion.subquestions.length > 0;
  const wizard = useCreationWizard(STEPS, problems, dirty);
  const total = totalPoints(questions);

  function onSuggested(suggestions: SuggestedQuestion[]) {
    const drafts = fromSuggestions(suggestions);
    if (questions.every(isBlankQuestion)) applySuggestions(drafts, 'replace');
    else setPendingSuggestions(drafts);
  }

  function applySuggestions(drafts: QuestionDraft[], mode: 'replace' | 'append') {
    setPendingSuggestions(null);
    setQuestions((qs) => (mode === 'replace' ? drafts : [...qs, ...drafts]));
    const count = drafts.length;
    showToast({
      type: 'success',
      message: `${count} ${count === 1 ? 'question' : 'questions'} added from the assignment sheet.`,
    });
  }

  function finish() {
    return wizard.finish(
      { name: name.trim(), type: 'grade', isHandWritten, provideInstantFeedback },
      { questions: toApiQuestions(questions) },
    );
  }

  if (wizard.leaving) return <LeavingSpinner />;

  const apiQuestions = wizard.step === 3 ? toApiQuestions(questions) : [];

  return (
    <WizardShell
      title="New grade assignment"
      {...wizard.shell}
      onFinish={() => void finish()}
      footerExtra={
        wizard.step === 2 && (
          <Typography id={totalId} aria-live="polite" sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
            Total: {pointsLabel(total)}
          </Typography>
        )
      }
    >
      {wizard.step === 1 && (
        <Stack spacing={2.5}>
          <NameField value={name} onChange={setName} />
          <SettingSwitch label="Handwritten" description={HANDWRITTEN_HELP} checked={isHandWritten} onChange={setHandWritten} />
          <SettingSwitch
            label="Instant feedback for students"
            description={INSTANT_FEEDBACK_HELP}
            checked={provideInstantFeedback}
            onChange={setInstantFeedback}
          />
        </Stack>
      )}

      {wizard.step === 2 && (
        <Stack spacing={2}>
          <SuggestQuestionsPanel onSuggested={onSuggested} />
          {questions.map((q, i) => (
            <QuestionEditor key={q.id} question={q} path={[i]} siblingCount={questions.length} actions={actions} />
          ))}
          {questions.length === 0 && (
            <Typography color="text.secondary" sx={{ textAlign: 'center', py: 3 }}>
              No questions yet. Add one, or generate them from the assignment sheet.
            </Typography>
          )}
          <Box>
            <Button variant="outlined" startIcon={<AddRounded />} onClick={addQuestion}>
              Add question
            </Button>
          </Box>
        </Stack>
      )}

      {wizard.step === 3 && (
        <Stack spacing={3}>
          <DetailList
            items={[
              { term: 'Name', value: name.trim() },
              { term: 'Handwritten', value: isHandWritten ? 'Yes' : 'No' },
              { term: 'Instant feedback', value: provideInstantFeedback ? 'Yes' : 'No' },
              { term: 'Questions', value: questionsCount(apiQuestions) },
              { term: 'Total points', value: pointsLabel(total) },
            ]}
          />
          <QuestionTreeView questions={apiQuestions} rubricNames={rubricNames} />
        </Stack>
      )}

      <Dialog open={pendingSuggestions !== null} onClose={() => setPendingSuggestions(null)} maxWidth="xs" fullWidth>
        <DialogTitle>Replace current questions?</DialogTitle>
        <DialogContent>
          <DialogContentText>
            The AI suggested {pendingSuggestions?.length ?? 0}{' '}
            {pendingSuggestions?.length === 1 ? 'question' : 'questions'}. Replace your {questions.length}{' '}
            {questions.length === 1 ? 'question' : 'questions'} with them, or add them after yours?
          </DialogContentText>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5, gap: 1, flexWrap: 'wrap' }}>
          <Button onClick={() => setPendingSuggestions(null)} autoFocus>
            Cancel
          </Button>
          <Button variant="outlined" onClick={() => pendingSuggestions && applySuggestions(pendingSuggestions, 'append')}>
            Add after mine
          </Button>
          <Button variant="contained" onClick={() => pendingSuggestions && applySuggestions(pendingSuggestions, 'replace')}>
            Replace
          </Button>
        </DialogActions>
      </Dialog>
    </WizardShell>
  );
}
