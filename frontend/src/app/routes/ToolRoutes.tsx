import type { RouteObject } from 'react-router';
import { createToolRoutes } from '../../features/tools/routes';

/** The tools routes, a workflow's run shown by the chat feature's ChatView (loaded with the workflow page). */
export const toolRoutesWithChat: RouteObject[] = createToolRoutes({
  loadRunView: () => import('../../features/chat/components/ChatView').then((m) => m.ChatView),
});
