import { configure } from '@testing-library/react';
import { renderRoutes } from '../../../testing/render-routes';
import { assignmentRoutes } from '../../../app/processes';

// These pages are large; on a busy machine a render can outlast Testing Library's 1 s default.
configure({ asyncUtilTimeout: 5000 });

/**
 * Renders the assignment pages at `path` with the app's theme, query cache and toast, behind a
 * library page (so history has somewhere to go back to) and a stand-in rubric editor. Sessions
 * and the app bar belong to other features and are left out.
 */
export function renderAssignments(path: string): ReturnType<typeof renderRoutes> {
  return renderRoutes(
    [
      { path: 'library', element: <h1>Library page</h1> },
      { path: 'rubrics/new', element: <h1>Rubric editor</h1> },
      ...assignmentRoutes,
    ],
    { initialEntries: ['/library', path], initialIndex: 1 },
  );
}
