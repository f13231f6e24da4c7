import { Navigate, type RouteObject } from 'react-router';
import { SignInPage } from '../features/auth/components/SignInPage';
import { LibraryPage } from '../features/library/components/LibraryPage';
import { AppLayout } from './routes/AppLayout';
import { NotFoundPage } from './routes/NotFoundPage';
import { RootLayout } from './routes/RootLayout';
import { RouteErrorPage } from './routes/RouteErrorPage';

/**
 * Every route in Markwell. The root layout (global toast) wraps all pages; the pathless child
 * catches page errors so the toast survives them.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      {
        errorElement: <RouteErrorPage />,
        children: [
          { index: true, element: <Navigate to="/library" replace /> },
          { path: 'signin', element: <SignInPage /> },
          {
            element: <AppLayout />,
            children: [{ path: 'library', element: <LibraryPage /> }],
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];
