import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useDocumentTitle } from '../../../../lib/use-document-title';
import { useRubricList } from '../../../../lib/rubrics';
import { useCreationWizard } from '../../hooks/use-creation-wizard';
import { DetailList } from '../view/DetailList';
import { RubricTable } from '../view/RubricTable';
import { LeavingSpinner } from '../wizard/LeavingSpinner';
import { HANDWRITTEN_HELP, NameField, nameProblem } from '../wizard/NameField';
import { SettingSwitch } from '../wizard/SettingSwitch';
import { WizardShell, type WizardStepInfo } from '../wizard/WizardShell';
import { RubricPicker } from './RubricPicker';

const STEPS: WizardStepInfo[] = [
  {
    label: 'Name and settings',
    title: 'Name your assignment',
    description: 'In a rubric-feedback assignment the AI places each submission on the levels of a saved rubric.',
  },
  {
    label: 'Rubric',
    title: 'Choose a rubric',
    description: "Pick one of your team's rubrics. The AI gives feedback on every criterion.",
  },
  {
    label: 'Review',
    title: 'Review',
    description: 'Check the rubric before you create the assignment.',
  },
];

/** Route `/assignments/new/rubric-feedback`: name and handwritten → a rubric → review → create. */
export function RubricFeedbackWizard() {
  useDocumentTitle('New rubric-feedback assignment');
  const [name, setName] = useState('');
  const [isHandWritten, setHandWritten] = useState(false);
  const [rubricId, setRubricId] = useState<string | null>(null);
  const rubrics = useRubricList();
  const selected = rubrics.data?.find((r) => r._id === rubricId);

  const problems = [nameProblem(name), selected ? null : 'Choose a rubric to continue.', null];
  const dirty = name.trim() !== '' || isHandWritten || rubricId !== null;
  const wizard = useCreationWizard(STEPS, problems, dirty);

  async function finish() {
    if (!selected) return;
    await wizard.finish(
      { name: name.trim(), type: 'rubric-feedback', isHandWritten, provideInstantFeedback: false },
      { rubricId: selected._id },
    );
  }

  if (wizard.leaving) return <LeavingSpinner />;

  return (
    <WizardShell
      title="New rubric-feedback assignment"
      {...wizard.shell}
      onFinish={() => void finish()}
    >
      {wizard.step === 1 && (
        <Stack spacing={2.5}>
          <NameField value={name} onChange={setName} />
          <SettingSwitch label="Handwritten" description={HANDWRITTEN_HELP} checked={isHandWritten} onChange={setHandWritten} />
        </Stack>
      )}
      {wizard.step === 2 && (
        <RubricPicker
          rubrics={rubrics.data}
          loading={rubrics.isPending}
          failed={rubrics.isError}
          onRetry={() => void rubrics.refetch()}
          value={rubricId}
          onChange={setRubricId}
        />
      )}
      {wizard.step === 3 && selected && (
        <Stack spacing={3}>
          <DetailList
            items={[
              { term: 'Name', value: name.trim() },
              { term: 'Handwritten', value: isHandWritten ? 'Yes' : 'No' },
              { term: 'Rubric', value: selected.name },
            ]}
          />
          <RubricTable rubric={selected} />
        </Stack>
      )}
    </WizardShell>
  );
}
