import type { AssignmentFunction } from '../../api/types';

/** Props of an assignment type's read-only definition (its module's `Definition`). */
export interface DefinitionProps {
  fn: AssignmentFunction;
}
