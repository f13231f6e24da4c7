import { createAssignmentRoutes } from '../../features/assignments/routes';
import { ASSIGNMENT_TYPES } from '../../lib/assignment-type';

/**
 * The assignments feature's routes: each type's wizard, the definition editor, and the assignment
 * page drawing definitions by type. The type modules (every type's wizard, definition, editor and
 * review) load with the first of these pages, not with the app.
 */
export const assignmentRoutes = createAssignmentRoutes({
  types: ASSIGNMENT_TYPES,
  load: () => import('./parts').then((m) => m.assignmentTypeParts),
});
