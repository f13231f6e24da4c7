import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { newAssignmentPath, type AssignmentType } from '../../lib/assignment-type';
import { lazyRoute, importChunk } from '../../lib/lazy-page';
import type { EditorProps } from './components/edit/editor-props';
import type { DefinitionProps } from './components/page/definition-props';

/** The assignment page's route. */
export const ASSIGNMENT_PAGE_PATH = 'assignment/:assignmentId';

/** The edit page's route, under the assignment page's. */
export const EDIT_ASSIGNMENT_PATH = 'assignment/:assignmentId/edit';

/** What the pages draw by assignment type: each type's module (app/processes). */
export interface AssignmentTypeParts {
  wizardFor: (type: string) => ComponentType | undefined;
  definitionFor: (type: string) => ComponentType<DefinitionProps> | undefined;
  /** Each type's definition editor after creation. */
  editorFor?: (type: string) => ComponentType<EditorProps> | undefined;
}

/** What {@link createAssignmentRoutes} takes: the types that get a wizard, and how to load their parts. */
export interface AssignmentRoutesOptions {
  types: readonly AssignmentType[];
  /**
   * Loads the types' components (app/processes). Called when one of these pages first opens, so
   * no other page downloads the wizards, definitions and editors.
   */
  load: () => Promise<AssignmentTypeParts>;
}

/**
 * The assignment pages, to sit inside the signed-in app layout: the creation wizard of each type
 * its module gives, the definition editor, and the assignment page. Each loads on first visit
 * (route `lazy`), the page's code and the types' parts together.
 */
export function createAssignmentRoutes({ types, load }: AssignmentRoutesOptions): RouteObject[] {
  const parts = () => importChunk(load);
  return [
    {
      path: EDIT_ASSIGNMENT_PATH,
      lazy: lazyRoute(async () => {
        const [{ EditAssignmentPage }, { editorFor }] = await Promise.all([
          importChunk(() => import('./components/edit/EditAssignmentPage')),
          parts(),
        ]);
        const noEditor = () => undefined;
        return { Component: () => <EditAssignmentPage editorFor={editorFor ?? noEditor} /> };
      }),
    },
    ...types.map((type) => ({
      path: newAssignmentPath(type).slice(1),
      lazy: lazyRoute(async () => {
        const Wizard = (await parts()).wizardFor(type);
        if (!Wizard) throw new Error(`No creation wizard for assignments of type ${type}`);
        return { Component: Wizard };
      }),
    })),
    {
      path: ASSIGNMENT_PAGE_PATH,
      lazy: lazyRoute(async () => {
        const [{ AssignmentPage }, { definitionFor }] = await Promise.all([
          importChunk(() => import('./components/page/AssignmentPage')),
          parts(),
        ]);
        return { Component: () => <AssignmentPage definitionFor={definitionFor} /> };
      }),
    },
  ];
}
