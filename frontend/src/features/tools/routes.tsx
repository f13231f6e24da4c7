import type { RouteObject } from 'react-router';
import { ToolsPage } from './components/ToolsPage';
import { WorkflowPage } from './components/WorkflowPage';

/** The tools and workflows catalogue, inside the signed-in app layout. */
export const toolRoutes: RouteObject[] = [
  { path: 'tools', element: <ToolsPage /> },
  { path: 'workflows/:workflowId', element: <WorkflowPage /> },
];
