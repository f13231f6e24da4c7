import type { RouteObject } from 'react-router';
import { ASSIGNMENT_PAGE_PATH } from '../../features/assignments/routes';
import { lazyPage } from '../../lib/lazy-page';

/** The assignments feature's routes with its assignment page replaced by the app's AssignmentRoute (its panels). */
export function withAssignmentPanels(routes: RouteObject[]): RouteObject[] {
  return routes.map((route) =>
    route.path === ASSIGNMENT_PAGE_PATH
      ? { ...route, lazy: lazyPage(() => import('./AssignmentRoute'), (m) => m.AssignmentRoute) }
      : route,
  );
}
