import type { QueryClient } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProviders } from '../app/providers';
import { routes } from '../app/routes';
import { ToastProvider } from '../components/toast';
import { createQueryClient } from '../lib/query-client';
import { loadedRoutes } from './loaded-routes';
import { server } from './server';
import { sessionHandler } from './handlers';

/** Options for the render helpers. */
export interface RenderOptions {
  /** Session polling interval in seconds; off unless given. */
  sessionRefetchInterval?: number;
}

/** Renders `ui` inside the app-wide providers and the toast, with a fresh query cache. */
export function renderWithProviders(
  ui: ReactNode,
  { sessionRefetchInterval = 0 }: RenderOptions = {},
): RenderResult & { queryClient: QueryClient } {
  const queryClient = createQueryClient();
  const result = render(
    <AppProviders queryClient={queryClient} sessionRefetchInterval={sessionRefetchInterval}>
      <ToastProvider>{ui}</ToastProvider>
    </AppProviders>,
  );
  return { ...result, queryClient };
}

/** Renders the whole app at `path` using a memory router; returns the router and cache too. */
export function renderApp(
  path: string | string[],
  { sessionRefetchInterval = 0 }: RenderOptions = {},
): RenderResult & { router: ReturnType<typeof createMemoryRouter>; queryClient: QueryClient } {
  const router = createMemoryRouter(loadedRoutes(routes), { initialEntries: Array.isArray(path) ? path : [path] });
  const queryClient = createQueryClient();
  const result = render(
    <AppProviders queryClient={queryClient} sessionRefetchInterval={sessionRefetchInterval}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, router, queryClient };
}

/** Makes the session endpoint answer "signed out" (`{}`) from now on. */
export function signOutEverywhere(): void {
  server.use(sessionHandler(null));
}

/** The current address of a memory router, path plus query. */
export function currentPath(router: ReturnType<typeof createMemoryRouter>): string {
  return router.state.location.pathname + router.state.location.search;
}
