import FactCheckOutlined from '@mui/icons-material/FactCheckOutlined';
import type { AssignmentTypeInfo } from './info';

/** `rubric-feedback`: each submission placed on the levels of a saved rubric. */
export const rubricFeedbackInfo: AssignmentTypeInfo = {
  label: 'Rubric feedback',
  description: 'Assess work against a saved rubric',
  Icon: FactCheckOutlined,
  color: '#2e6b3a',
  tint: 'rgba(46, 107, 58, 0.1)',
  menuRank: 2,
  definitionTitle: 'Rubric',
  processName: 'RubricFeedbackProcess',
  verbs: { run: 'Grade', running: 'Grading', done: 'graded' },
  criteria: 'earned',
  csvImport: false,
  answerBoxes: false,
  criterionKeys: false,
};
