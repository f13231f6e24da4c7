import { createElement } from 'react';
import { lazyComponent } from '../../components/lazy-component';
import { PageSpinner } from '../../components/PageSpinner';
import { feedbackInfo } from '../../lib/assignment-types/feedback';
import type { AssignmentProcess } from './types';

/** What a part shows while its chunk loads. */
const spinner = createElement(PageSpinner);

const FeedbackReview = lazyComponent(() => import('../../features/results/components/highlights/FeedbackReview').then((m) => m.FeedbackReview), spinner);

/** `feedback`: highlighters the AI annotates writing with. Each part loads with the first screen that draws it. */
export const feedbackProcess: AssignmentProcess = {
  type: 'feedback',
  info: feedbackInfo,
  Wizard: lazyComponent(() => import('../../features/assignments/components/feedback/FeedbackWizard').then((m) => m.FeedbackWizard), spinner),
  Definition: lazyComponent(() => import('../../features/assignments/components/feedback/FeedbackDefinition').then((m) => m.FeedbackDefinition), spinner),
  Editor: lazyComponent(() => import('../../features/assignments/components/feedback/FeedbackEditor').then((m) => m.FeedbackEditor), spinner),
  Review: FeedbackReview,
  StudentView: FeedbackReview,
  Summary: null,
};
