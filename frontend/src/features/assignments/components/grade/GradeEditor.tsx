import AddRounded from '@mui/icons-material/AddRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { pointsLabel } from '../../lib/labels';
import {
  questionDrafts,
  questionsProblem,
  toApiQuestions,
  totalPoints,
} from '../../lib/questions';
import type { EditorProps } from '../edit/editor-props';
import { HANDWRITTEN_HELP, INSTANT_FEEDBACK_HELP } from '../wizard/NameField';
import { SettingSwitch } from '../wizard/SettingSwitch';
import { QuestionEditor } from './QuestionEditor';
import { useQuestionTree } from '../../hooks/use-question-tree';

/**
 * A saved grade assignment's switches and question tree, in the wizard's question editors: add,
 * remove and reorder questions, change criteria and points. Saved questions keep their ids, so a
 * result's ticks follow them.
 */
export function GradeEditor({ fn, settings, onSettings, onChange }: EditorProps) {
  const { questions, actions, addQuestion } = useQuestionTree(() => questionDrafts(fn.questions ?? []));

  useEffect(() => {
    onChange({ input: { questions: toApiQuestions(questions) }, problem: questionsProblem(questions) });
  }, [questions, onChange]);

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
