import { ThemeProvider } from '@mui/material/styles';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider, useParams } from 'react-router';
import { theme } from '../../app/theme';
import { ToastProvider } from '../../components/toast';
import { createQueryClient } from '../../lib/query-client';
import { RubricEditorPage } from './components/RubricEditorPage';
import { RubricsPage } from './components/RubricsPage';

function LibraryStub() {
  return <h1>Library stub</h1>;
}

function ParamsStub() {
  return <h1>Page {useParams()['*']}</h1>;
}

/** Renders the rubric routes at `path` with the toast and a fresh cache; returns the router too. */
export function renderRubricRoutes(path: string) {
  const router = createMemoryRouter(
    [
      {
        element: (
          <ToastProvider>
            <Outlet />
          </ToastProvider>
        ),
        children: [
          { path: '/rubrics', element: <RubricsPage /> },
          { path: '/rubrics/new', element: <RubricEditorPage /> },
          { path: '/rubrics/:rubricId', element: <RubricEditorPage /> },
          { path: '/library', element: <LibraryStub /> },
          { path: '*', element: <ParamsStub /> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  const result = render(
    <QueryClientProvider client={createQueryClient()}>
      <ThemeProvider theme={theme}>
        <RouterProvider router={router} />
      </ThemeProvider>
    </QueryClientProvider>,
  );
  return { ...result, router };
}
