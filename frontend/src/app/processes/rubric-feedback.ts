import { createElement } from 'react';
import { lazyComponent } from '../../components/lazy-component';
import { PageSpinner } from '../../components/PageSpinner';
import { rubricFeedbackInfo } from '../../lib/assignment-types/rubric-feedback';
import type { AssignmentProcess } from './types';

/** What a part shows while its chunk loads. */
const spinner = createElement(PageSpinner);

const RubricReview = lazyComponent(() => import('../../features/results/components/rubric/RubricReview').then((m) => m.RubricReview), spinner);

/** `rubric-feedback`: each submission placed on the levels of a saved rubric. Each part loads with the first screen that draws it. */
export const rubricFeedbackProcess: AssignmentProcess = {
  type: 'rubric-feedback',
  info: rubricFeedbackInfo,
  Wizard: lazyComponent(() => import('../../features/assignments/components/rubric-feedback/RubricFeedbackWizard').then((m) => m.RubricFeedbackWizard), spinner),
  Definition: lazyComponent(() =>
    import('../../features/assignments/components/rubric-feedback/RubricFeedbackDefinition').then((m) => m.RubricFeedbackDefinition), spinner),
  Editor: lazyComponent(() => import('../../features/assignments/components/rubric-feedback/RubricFeedbackEditor').then((m) => m.RubricFeedbackEditor), spinner),
  Review: RubricReview,
  StudentView: RubricReview,
  Summary: lazyComponent(() => import('./ScoredSummary').then((m) => m.ScoredSummary)),
};
