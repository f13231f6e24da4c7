import { render, type RenderResult } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProviders } from '../app/providers';
import { routes } from '../app/routes';
import { ToastProvider } from '../components/toast';
import { createQueryClient } from '../lib/query-client';

/** Renders `ui` inside the app-wide providers and the toast, with a fresh query cache. */
export function renderWithProviders(ui: ReactNode): RenderResult {
  return render(
    <AppProviders queryClient={createQueryClient()}>
      <ToastProvider>{ui}</ToastProvider>
    </AppProviders>,
  );
}

/** Renders the whole app at `path` using a memory router; returns the router too. */
export function renderApp(path: string): RenderResult & { router: ReturnType<typeof createMemoryRouter> } {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const result = render(
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, router };
}
