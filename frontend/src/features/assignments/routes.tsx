import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { newAssignmentPath, type AssignmentType } from '../../lib/assignment-type';
import { EDIT_ASSIGNMENT_PATH, EditAssignmentPage } from './components/edit/EditAssignmentPage';
import type { EditorProps } from './components/edit/editor-props';
import { AssignmentPage } from './components/page/AssignmentPage';
import type { DefinitionProps } from './components/page/definition-props';

/** The assignment page's route. */
export const ASSIGNMENT_PAGE_PATH = 'assignment/:assignmentId';

/** What {@link createAssignmentRoutes} takes: each type's wizard and definition (app/processes). */
export interface AssignmentRoutesOptions {
  types: readonly { type: AssignmentType; Wizard: ComponentType }[];
  definitionFor: (type: string) => ComponentType<DefinitionProps> | undefined;
  /** Each type's definition editor after creation (app/processes). */
  editorFor?: (type: string) => ComponentType<EditorProps> | undefined;
}

/**
 * The assignment pages, to sit inside the signed-in app layout: the creation wizard of each type
 * its module gives, and the assignment page.
 */
export function createAssignmentRoutes({ types, definitionFor, editorFor }: AssignmentRoutesOptions): RouteObject[] {
  return [
    ...(editorFor ? [{ path: EDIT_ASSIGNMENT_PATH, element: <EditAssignmentPage editorFor={editorFor} /> }] : []),
    ...types.map(({ type, Wizard }) => ({ path: newAssignmentPath(type).slice(1), element: <Wizard /> })),
    { path: ASSIGNMENT_PAGE_PATH, element: <AssignmentPage definitionFor={definitionFor} /> },
  ];
}
