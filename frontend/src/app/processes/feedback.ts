import { FeedbackEditor } from '../../features/assignments/components/feedback/FeedbackEditor';
import { FeedbackDefinition } from '../../features/assignments/components/feedback/FeedbackDefinition';
import { FeedbackWizard } from '../../features/assignments/components/feedback/FeedbackWizard';
import { FeedbackReview } from '../../features/results/components';
import { feedbackInfo } from '../../lib/assignment-types/feedback';
import type { AssignmentProcess } from './types';

/** `feedback`: highlighters the AI annotates writing with. */
export const feedbackProcess: AssignmentProcess = {
  type: 'feedback',
  info: feedbackInfo,
  Wizard: FeedbackWizard,
  Definition: FeedbackDefinition,
  Editor: FeedbackEditor,
  Review: FeedbackReview,
  StudentView: FeedbackReview,
  Summary: null,
};
