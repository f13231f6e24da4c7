import { GradeEditor } from '../../features/assignments/components/grade/GradeEditor';
import { GradeDefinition } from '../../features/assignments/components/grade/GradeDefinition';
import { GradeWizard } from '../../features/assignments/components/grade/GradeWizard';
import { GradeReview, GradeStudentView } from '../../features/results/components';
import { gradeInfo } from '../../lib/assignment-types/grade';
import { ScoredSummary } from './ScoredSummary';
import type { AssignmentProcess } from './types';

/** `grade`: questions with criteria and points. */
export const gradeProcess: AssignmentProcess = {
  type: 'grade',
  info: gradeInfo,
  Wizard: GradeWizard,
  Definition: GradeDefinition,
  Editor: GradeEditor,
  Review: GradeReview,
  StudentView: GradeStudentView,
  Summary: ScoredSummary,
};
