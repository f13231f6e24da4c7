import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClientProvider } from '@tanstack/react-query';
import { configure, render, type RenderResult } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { theme } from '../../../app/theme';
import { ToastProvider } from '../../../components/toast';
import { createQueryClient } from '../../../lib/query-client';
import { assignmentRoutes } from '../routes';

// These pages are large; on a busy machine a render can outlast Testing Library's 1 s default.
configure({ asyncUtilTimeout: 5000 });

/**
 * Renders the assignment pages at `path` with the app's theme, query cache and toast, behind a
 * library page (so history has somewhere to go back to) and a stand-in rubric editor. Sessions
 * and the app bar belong to other features and are left out.
 */
export function renderAssignments(path: string): RenderResult & { router: ReturnType<typeof createMemoryRouter> } {
  const router = createMemoryRouter(
    [
      {
        element: (
          <ToastProvider>
            <Outlet />
          </ToastProvider>
        ),
        children: [
          { path: 'library', element: <h1>Library page</h1> },
          { path: 'rubrics/new', element: <h1>Rubric editor</h1> },
          ...assignmentRoutes,
        ],
      },
    ],
    { initialEntries: ['/library', path], initialIndex: 1 },
  );
  const result = render(
    <QueryClientProvider client={createQueryClient()}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <RouterProvider router={router} />
      </ThemeProvider>
    </QueryClientProvider>,
  );
  return { ...result, router };
}
