import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazy-page';

const editorPage = lazyPage(() => import('./components/AssistantEditorPage'), (m) => m.AssistantEditorPage);

/** The assistant pages, inside the signed-in app layout: the list and the editor, each from its own chunk. */
export const assistantRoutes: RouteObject[] = [
  { path: 'assistants', lazy: lazyPage(() => import('./components/AssistantsPage'), (m) => m.AssistantsPage) },
  { path: 'assistants/new', lazy: editorPage },
  { path: 'assistants/:assistantId/edit', lazy: editorPage },
];
