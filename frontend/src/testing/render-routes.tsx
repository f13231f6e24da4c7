import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider, type RouteObject } from 'react-router';
import { theme } from '../app/theme';
import { ToastProvider } from '../components/toast';
import { createQueryClient } from '../lib/query-client';
import { loadedRoutes } from './loaded-routes';

/** Where {@link renderRoutes} starts: the memory router's history and the entry shown. */
export interface RouteRenderOptions {
  initialEntries: string[];
  initialIndex?: number;
}

/**
 * Renders a feature's own `routes` in a memory router, under the toast, with the app's theme and
 * baseline styles and a fresh query cache. There is no session and no app bar (they belong to
 * other features), and the app's route tree is not loaded. Returns the router too.
 */
export function renderRoutes(
  routes: RouteObject[],
  { initialEntries, initialIndex }: RouteRenderOptions,
): RenderResult & { router: ReturnType<typeof createMemoryRouter> } {
  const router = createMemoryRouter(
    [
      {
        element: (
          <ToastProvider>
            <Outlet />
          </ToastProvider>
        ),
        children: loadedRoutes(routes),
      },
    ],
    { initialEntries, initialIndex },
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
