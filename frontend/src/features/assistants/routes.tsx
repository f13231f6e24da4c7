import type { RouteObject } from 'react-router';
import { AssistantEditorPage } from './components/AssistantEditorPage';
import { AssistantsPage } from './components/AssistantsPage';

/** The assistant pages, inside the signed-in app layout: the list and the editor. */
export const assistantRoutes: RouteObject[] = [
  { path: 'assistants', element: <AssistantsPage /> },
  { path: 'assistants/new', element: <AssistantEditorPage /> },
  { path: 'assistants/:assistantId/edit', element: <AssistantEditorPage /> },
];
