import type { ComponentType } from 'react';
import type { AssignmentWithResults } from '../../features/assignments/api/get-assignment';
import type { EditorProps } from '../../features/assignments/components/edit/editor-props';
import type { DefinitionProps } from '../../features/assignments/components/page/definition-props';
import type { ResultReviewProps } from '../../features/results/components';
import type { AssignmentType, AssignmentTypeInfo } from '../../lib/assignment-type';

/**
 * One assignment type's module: its info (lib/assignment-type) and the components other features
 * draw it with. The screens ask the module of an assignment's type instead of branching on the
 * type; `index.ts` registers one module per type.
 */
export interface AssignmentProcess {
  type: AssignmentType;
  info: AssignmentTypeInfo;
  /** The creation wizard's steps, at `/assignments/new/<type>` (features/assignments). */
  Wizard: ComponentType;
  /** The definition, read-only, on the assignment page (features/assignments). */
  Definition: ComponentType<DefinitionProps>;
  /** The definition's editor after creation, at `/assignment/:id/edit` (features/assignments). */
  Editor: ComponentType<EditorProps>;
  /** The teacher's review panel of one result (features/results). */
  Review: ComponentType<ResultReviewProps>;
  /** What a student sees of a finished result (drawn read-only). */
  StudentView: ComponentType<ResultReviewProps>;
  /** The class summary's panels under the submissions, or null when the type has none. */
  Summary: ComponentType<{ data: AssignmentWithResults }> | null;
}
