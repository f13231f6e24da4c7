import type { RouteObject } from 'react-router';
import { ChatPage } from './components/ChatPages';

/**
 * The chat pages, inside the signed-in app layout: a document chat, a saved chat reopened, a chat
 * with an assistant and a chat with a built-in tool. They share one page component, so a chat
 * keeps its place on screen when its first save moves it to `/chat/:chatId`.
 */
export const chatRoutes: RouteObject[] = [
  { path: 'chat', element: <ChatPage /> },
  { path: 'chat/:chatId', element: <ChatPage /> },
  { path: 'assistants/:assistantId/chat', element: <ChatPage /> },
  { path: 'tools/:toolId/chat', element: <ChatPage /> },
];
