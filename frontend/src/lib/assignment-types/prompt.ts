import ChatOutlined from '@mui/icons-material/ChatOutlined';
import type { AssignmentTypeInfo } from './info';

/** `prompt`: the teacher's own instructions to the AI. */
export const promptInfo: AssignmentTypeInfo = {
  label: 'Prompt',
  description: 'Your own instructions to the AI',
  Icon: ChatOutlined,
  color: '#8a3f6b',
  tint: 'rgba(138, 63, 107, 0.1)',
  menuRank: 3,
  definitionTitle: 'Prompt',
  processName: 'PromptProcess',
  verbs: { run: 'Grade', running: 'Grading', done: 'graded' },
  criteria: null,
  csvImport: false,
  answerBoxes: false,
  criterionKeys: false,
};
