import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { ToolsPage } from './components/ToolsPage';
import { WorkflowPage, type WorkflowRunViewProps } from './components/WorkflowPage';

/** What {@link createToolRoutes} takes: what other features provide. */
export interface ToolRoutesOptions {
  /** Draws a workflow's run (the chat feature's ChatView, given by the app). */
  RunView: ComponentType<WorkflowRunViewProps>;
}

/** The tools and workflows catalogue, inside the signed-in app layout. */
export function createToolRoutes({ RunView }: ToolRoutesOptions): RouteObject[] {
  return [
    { path: 'tools', element: <ToolsPage /> },
    { path: 'workflows/:workflowId', element: <WorkflowPage RunView={RunView} /> },
  ];
}
