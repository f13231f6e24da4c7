import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazy-page';

/** LTI pages inside the signed-in app layout: the operators' registrations and the teacher's deep-linking pick. */
export const ltiRoutes: RouteObject[] = [
  { path: 'admin/lti', lazy: lazyPage(() => import('./components/LtiAdminPage'), (m) => m.LtiAdminPage) },
  { path: 'lti/deep-link/:id', lazy: lazyPage(() => import('./components/DeepLinkPage'), (m) => m.DeepLinkPage) },
];
