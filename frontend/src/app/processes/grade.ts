import { createElement } from 'react';
import { lazyComponent } from '../../components/lazy-component';
import { PageSpinner } from '../../components/PageSpinner';
import { gradeInfo } from '../../lib/assignment-types/grade';
import type { AssignmentProcess } from './types';

/** What a part shows while its chunk loads. */
const spinner = createElement(PageSpinner);

/** `grade`: questions with criteria and points. Each part loads with the first screen that draws it. */
export const gradeProcess: AssignmentProcess = {
  type: 'grade',
  info: gradeInfo,
  Wizard: lazyComponent(() => import('../../features/assignments/components/grade/GradeWizard').then((m) => m.GradeWizard), spinner),
  Definition: lazyComponent(() => import('../../features/assignments/components/grade/GradeDefinition').then((m) => m.GradeDefinition), spinner),
  Editor: lazyComponent(() => import('../../features/assignments/components/grade/GradeEditor').then((m) => m.GradeEditor), spinner),
  Review: lazyComponent(() => import('../../features/results/components/grade/GradeReview').then((m) => m.GradeReview), spinner),
  StudentView: lazyComponent(() => import('../../features/results/components/student/GradeStudentView').then((m) => m.GradeStudentView), spinner),
  Summary: lazyComponent(() => import('./ScoredSummary').then((m) => m.ScoredSummary)),
};
