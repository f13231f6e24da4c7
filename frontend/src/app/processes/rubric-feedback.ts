import { RubricFeedbackEditor } from '../../features/assignments/components/rubric-feedback/RubricFeedbackEditor';
import { RubricFeedbackDefinition } from '../../features/assignments/components/rubric-feedback/RubricFeedbackDefinition';
import { RubricFeedbackWizard } from '../../features/assignments/components/rubric-feedback/RubricFeedbackWizard';
import { RubricReview } from '../../features/results/components';
import { rubricFeedbackInfo } from '../../lib/assignment-types/rubric-feedback';
import { ScoredSummary } from './ScoredSummary';
import type { AssignmentProcess } from './types';

/** `rubric-feedback`: each submission placed on the levels of a saved rubric. */
export const rubricFeedbackProcess: AssignmentProcess = {
  type: 'rubric-feedback',
  info: rubricFeedbackInfo,
  Wizard: RubricFeedbackWizard,
  Definition: RubricFeedbackDefinition,
  Editor: RubricFeedbackEditor,
  Review: RubricReview,
  StudentView: RubricReview,
  Summary: ScoredSummary,
};
