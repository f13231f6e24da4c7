import type { RouteObject } from 'react-router';
import { FeedbackWizard } from './components/feedback/FeedbackWizard';
import { GradeWizard } from './components/grade/GradeWizard';
import { AssignmentPage } from './components/page/AssignmentPage';
import { PromptForm } from './components/prompt/PromptForm';
import { RubricFeedbackWizard } from './components/rubric-feedback/RubricFeedbackWizard';

/**
 * The assignment pages, to sit inside the signed-in app layout: the three creation wizards, the
 * prompt form, and the assignment page.
 */
export const assignmentRoutes: RouteObject[] = [
  { path: 'assignments/new/feedback', element: <FeedbackWizard /> },
  { path: 'assignments/new/grade', element: <GradeWizard /> },
  { path: 'assignments/new/rubric-feedback', element: <RubricFeedbackWizard /> },
  { path: 'assignments/new/prompt', element: <PromptForm /> },
  { path: 'assignment/:assignmentId', element: <AssignmentPage /> },
];
