import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useDocumentTitle } from '../../../../lib/use-document-title';
import { useCreationWizard } from '../../hooks/use-creation-wizard';
import { defaultHighlighters, highlightersProblem, toApiHighlighters, type HighlighterDraft } from '../../lib/highlighters';
import { LeavingSpinner } from '../wizard/LeavingSpinner';
import { NameField, nameProblem } from '../wizard/NameField';
import { WizardShell, type WizardStepInfo } from '../wizard/WizardShell';
import { HighlighterEditor } from './HighlighterEditor';

const STEPS: WizardStepInfo[] = [
  {
    label: 'Name',
    title: 'Name your assignment',
    description: 'In a feedback assignment the AI highlights passages in each submission and comments on them.',
  },
  {
    label: 'Question context',
    title: 'What were the students asked?',
    description: 'Paste the task as the students saw it. The AI reads every submission with it in mind.',
  },
  {
    label: 'Highlighters',
    title: 'Highlighters',
    description: 'Each highlighter marks one kind of passage. The AI uses its description to decide what to highlight.',
  },
];

/** Route `/assignments/new/feedback`: name → question context → highlighters → create. */
export function FeedbackWizard() {
  useDocumentTitle('New feedback assignment');
  const [name, setName] = useState('');
  const [context, setContext] = useState('');
  const [highlighters, setHighlighters] = useState<HighlighterDraft[]>(defaultHighlighters);

  const problems = [
    nameProblem(name),
    context.trim() === '' ? 'Describe what the students were asked to continue.' : null,
    highlightersProblem(highlighters),
  ];
  const [initialHighlighters] = useState(highlighters);
  const dirty = name.trim() !== '' || context.trim() !== '' || highlighters !== initialHighlighters;
  const wizard = useCreationWizard(STEPS, problems, dirty);

  function finish() {
    return wizard.finish(
      { name: name.trim(), type: 'feedback', isHandWritten: false, provideInstantFeedback: false },
      { highlights: toApiHighlighters(highlighters), context: context.trim() },
    );
  }

  if (wizard.leaving) return <LeavingSpinner />;

  return (
    <WizardShell
      title="New feedback assignment"
      {...wizard.shell}
      onFinish={() => void finish()}
    >
      {wizard.step === 1 && <NameField value={name} onChange={setName} />}
      {wizard.step === 2 && (
        <TextField
          label="Question context"
          value={context}
          onChange={(event) => setContext(event.target.value)}
          required
          multiline
          minRows={6}
          maxRows={16}
          placeholder="e.g. Write a 500-word persuasive essay arguing for or against school uniforms. Use at least two pieces of evidence."
          helperText="The question, task or prompt the students answered."
        />
      )}
      {wizard.step === 3 && <HighlighterEditor highlighters={highlighters} onChange={setHighlighters} />}
    </WizardShell>
  );
}
