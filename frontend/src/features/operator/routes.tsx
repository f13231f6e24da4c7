import type { RouteObject } from 'react-router';
import { ModelCheckPage } from './components/ModelCheckPage';

/** The operators' pages inside the signed-in app layout (the server answers 404 to anyone else). */
export const operatorRoutes: RouteObject[] = [{ path: 'admin/model-check', element: <ModelCheckPage /> }];
