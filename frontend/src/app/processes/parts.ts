import type { AssignmentTypeParts } from '../../features/assignments/routes';
import { processes } from './index';

/** What the assignment pages draw by type, from the type modules (its own chunk: the routes load it). */
export const assignmentTypeParts: AssignmentTypeParts = {
  wizardFor: (type) => processes.get(type)?.Wizard,
  definitionFor: (type) => processes.get(type)?.Definition,
  editorFor: (type) => processes.get(type)?.Editor,
};
