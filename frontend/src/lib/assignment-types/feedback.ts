import RateReviewOutlined from '@mui/icons-material/RateReviewOutlined';
import type { AssignmentTypeInfo } from './info';

/** `feedback`: highlighters the AI uses to annotate writing. */
export const feedbackInfo: AssignmentTypeInfo = {
  label: 'Feedback',
  description: 'Highlight and comment on writing',
  Icon: RateReviewOutlined,
  color: '#4a4f9c',
  tint: 'rgba(74, 79, 156, 0.1)',
  menuRank: 0,
  definitionTitle: 'Feedback setup',
  processName: 'FeedbackProcess',
  verbs: { run: 'Annotate', running: 'Annotating', done: 'annotated' },
  criteria: null,
  csvImport: false,
  answerBoxes: false,
  criterionKeys: false,
};
