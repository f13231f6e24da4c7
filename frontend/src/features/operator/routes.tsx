import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazy-page';

/** The operators' pages inside the signed-in app layout (the server answers 404 to anyone else). */
export const operatorRoutes: RouteObject[] = [
  { path: 'admin/model-check', lazy: lazyPage(() => import('./components/ModelCheckPage'), (m) => m.ModelCheckPage) },
];
