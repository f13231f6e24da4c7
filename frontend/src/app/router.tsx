import { createBrowserRouter } from 'react-router';
import { routes } from './routes';

/** The browser router for the running app (tests use a memory router over the same routes). */
export const router = createBrowserRouter(routes);
