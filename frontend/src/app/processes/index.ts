import { createAssignmentTypeRegistry } from '../../lib/assignment-type';
import { feedbackProcess } from './feedback';
import { gradeProcess } from './grade';
import { promptProcess } from './prompt';
import { rubricFeedbackProcess } from './rubric-feedback';
import type { AssignmentProcess } from './types';

export type { AssignmentProcess } from './types';

/**
 * The assignment-type modules, one per type (docs/architecture.md, "Frontend: assignment-type
 * modules"). The app's screens ask `processes.get(assignment.type)` for a type's wizard,
 * definition, review panel, student view and summary panels.
 */
export const processes = createAssignmentTypeRegistry<AssignmentProcess>({
  grade: gradeProcess,
  feedback: feedbackProcess,
  'rubric-feedback': rubricFeedbackProcess,
  prompt: promptProcess,
});

export { assignmentRoutes } from './routes';
