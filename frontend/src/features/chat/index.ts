/** The chat: a conversation with the model that writes documents, beside a document pane. */
export { ChatView, type ChatViewProps } from './components/ChatView';
export { chatRoutes } from './routes';
