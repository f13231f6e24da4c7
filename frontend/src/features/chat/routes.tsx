import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazy-page';

/** The chat page, from its own chunk (the chat, its editor and the document pane load with it). */
const chatPage = lazyPage(() => import('./components/ChatPages'), (m) => m.ChatPage);

/**
 * The chat pages, inside the signed-in app layout: a document chat, a saved chat reopened, a chat
 * with an assistant and a chat with a built-in tool. They share one page component, so a chat
 * keeps its place on screen when its first save moves it to `/chat/:chatId`.
 */
export const chatRoutes: RouteObject[] = [
  { path: 'chat', lazy: chatPage },
  { path: 'chat/:chatId', lazy: chatPage },
  { path: 'assistants/:assistantId/chat', lazy: chatPage },
  { path: 'tools/:toolId/chat', lazy: chatPage },
];
