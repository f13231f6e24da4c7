import { createElement } from 'react';
import { lazyComponent } from '../../components/lazy-component';
import { PageSpinner } from '../../components/PageSpinner';
import { promptInfo } from '../../lib/assignment-types/prompt';
import type { AssignmentProcess } from './types';

/** What a part shows while its chunk loads. */
const spinner = createElement(PageSpinner);

const PromptReview = lazyComponent(() => import('../../features/results/components/prompt/PromptReview').then((m) => m.PromptReview), spinner);

/** `prompt`: the teacher's own instructions to the AI. Each part loads with the first screen that draws it. */
export const promptProcess: AssignmentProcess = {
  type: 'prompt',
  info: promptInfo,
  Wizard: lazyComponent(() => import('../../features/assignments/components/prompt/PromptForm').then((m) => m.PromptForm), spinner),
  Definition: lazyComponent(() => import('../../features/assignments/components/prompt/PromptDefinition').then((m) => m.PromptDefinition), spinner),
  Editor: lazyComponent(() => import('../../features/assignments/components/prompt/PromptEditor').then((m) => m.PromptEditor), spinner),
  Review: PromptReview,
  StudentView: PromptReview,
  Summary: null,
};
