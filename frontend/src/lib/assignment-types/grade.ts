import GradingOutlined from '@mui/icons-material/GradingOutlined';
import type { AssignmentTypeInfo } from './info';

/** `grade`: questions with criteria and points. */
export const gradeInfo: AssignmentTypeInfo = {
  label: 'Grade',
  description: 'Questions with criteria and points',
  Icon: GradingOutlined,
  color: '#17616b',
  tint: 'rgba(23, 97, 107, 0.1)',
  menuRank: 1,
  definitionTitle: 'Questions',
  processName: 'GradeProcessV2',
  verbs: { run: 'Grade', running: 'Grading', done: 'graded' },
  criteria: 'met',
  csvImport: true,
  answerBoxes: true,
  criterionKeys: true,
};
