import type { RouteObject } from 'react-router';
import { ChatView } from '../../features/chat';
import { createToolRoutes } from '../../features/tools/routes';

/** The tools routes, a workflow's run shown by the chat feature's ChatView. */
export const toolRoutesWithChat: RouteObject[] = createToolRoutes({ RunView: ChatView });
