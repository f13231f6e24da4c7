import { PromptEditor } from '../../features/assignments/components/prompt/PromptEditor';
import { PromptDefinition } from '../../features/assignments/components/prompt/PromptDefinition';
import { PromptForm } from '../../features/assignments/components/prompt/PromptForm';
import { PromptReview } from '../../features/results/components';
import { promptInfo } from '../../lib/assignment-types/prompt';
import type { AssignmentProcess } from './types';

/** `prompt`: the teacher's own instructions to the AI. */
export const promptProcess: AssignmentProcess = {
  type: 'prompt',
  info: promptInfo,
  Wizard: PromptForm,
  Definition: PromptDefinition,
  Editor: PromptEditor,
  Review: PromptReview,
  StudentView: PromptReview,
  Summary: null,
};
