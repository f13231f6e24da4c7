import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { lazyPage, lazyRoute, importChunk } from '../../lib/lazy-page';
import type { WorkflowRunViewProps } from './components/WorkflowPage';

/** What {@link createToolRoutes} takes: what other features provide. */
export interface ToolRoutesOptions {
  /** Loads what draws a workflow's run (the chat feature's ChatView, given by the app), with the workflow page. */
  loadRunView: () => Promise<ComponentType<WorkflowRunViewProps>>;
}

/** The tools and workflows catalogue, inside the signed-in app layout, each page from its own chunk. */
export function createToolRoutes({ loadRunView }: ToolRoutesOptions): RouteObject[] {
  return [
    { path: 'tools', lazy: lazyPage(() => import('./components/ToolsPage'), (m) => m.ToolsPage) },
    {
      path: 'workflows/:workflowId',
      lazy: lazyRoute(async () => {
        const [{ WorkflowPage }, RunView] = await Promise.all([
          importChunk(() => import('./components/WorkflowPage')),
          importChunk(loadRunView),
        ]);
        return { Component: () => <WorkflowPage RunView={RunView} /> };
      }),
    },
  ];
}
