import Stack from '@mui/material/Stack';
import { useEffect, useState } from 'react';
import { useRubricList } from '../../../../lib/rubrics';
import type { EditorProps } from '../edit/editor-props';
import { HANDWRITTEN_HELP } from '../wizard/NameField';
import { SettingSwitch } from '../wizard/SettingSwitch';
import { RubricPicker } from './RubricPicker';

/** A saved rubric-feedback assignment's switch and rubric, in the wizard's picker. */
export function RubricFeedbackEditor({ fn, settings, onSettings, onChange }: EditorProps) {
  const [rubricId, setRubricId] = useState<string | null>(fn.rubricId ?? null);
  const rubrics = useRubricList();
  const chosen = rubrics.data?.some((r) => r._id === rubricId) ?? false;

  useEffect(() => {
    onChange({ input: { rubricId: rubricId ?? '' }, problem: rubricId && (chosen || rubrics.isPending) ? null : 'Choose a rubric to continue.' });
  }, [rubricId, chosen, rubrics.isPending, onChange]);

  return (
    <Stack spacing={3}>
      <SettingSwitch
        label="Handwritten"
        description={HANDWRITTEN_HELP}
        checked={settings.isHandWritten}
        onChange={(isHandWritten) => onSettings({ ...settings, isHandWritten })}
      />
      <RubricPicker
        rubrics={rubrics.data}
        loading={rubrics.isPending}
        failed={rubrics.isError}
        onRetry={() => void rubrics.refetch()}
        value={rubricId}
        onChange={setRubricId}
      />
    </Stack>
  );
}
