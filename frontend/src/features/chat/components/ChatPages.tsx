import { useParams } from 'react-router';
import { LoadError } from '../../../components/LoadError';
import { PageSpinner } from '../../../components/PageSpinner';
import { useChatList } from '../api/chats';
import { findCatalogEntry, useAssistantSummaries, useCatalog } from '../api/titles';
import { ChatNotFound, ChatView } from './ChatView';

/** The heading of a plain document chat. */
export const DOCUMENT_CHAT_TITLE = 'Document chat';

/**
 * Every chat address: `/chat` (a document chat), `/chat/:chatId` (a saved chat, headed by its
 * assistant's or tool's title), `/assistants/:assistantId/chat` and `/tools/:toolId/chat` (a new
 * chat with an assistant or a built-in tool, opened by its first message). One component serves
 * them all, so a chat that moves to `/chat/:chatId` on its first save stays on the page as it is.
 */
export function ChatPage() {
  const params = useParams();
  const chatId = params.chatId;
  const chats = useChatList(chatId !== undefined);
  const saved = chatId !== undefined ? chats.data?.find((c) => c._id === chatId) : undefined;
  const assistantId = params.assistantId ?? (saved?.assistantId || undefined);
  const toolId = params.toolId ?? (saved?.toolId || undefined);
  const assistants = useAssistantSummaries(assistantId !== undefined);
  const catalog = useCatalog(assistantId === undefined && toolId !== undefined);

  if (chatId !== undefined) {
    // ChatView loads the chat itself; the heading follows when its assistant or tool is known.
    let title = DOCUMENT_CHAT_TITLE;
    if (assistantId) title = assistants.data?.find((a) => a._id === assistantId)?.title ?? 'Assistant chat';
    else if (toolId) title = (catalog.data && findCatalogEntry(catalog.data, toolId)?.title) ?? 'Tool chat';
    return <ChatView chatId={chatId} title={title} />;
  }

  if (assistantId !== undefined) {
    if (assistants.isPending) return <PageSpinner label="Loading the assistant" />;
    if (assistants.isError) {
      return (
        <LoadError message="We couldn't load this assistant." onRetry={() => void assistants.refetch()} retrying={assistants.isFetching} />
      );
    }
    const assistant = assistants.data.find((a) => a._id === assistantId);
    if (!assistant) return <ChatNotFound what="assistant" />;
    return <ChatView assistantId={assistantId} title={assistant.title} initialMessage={assistant.initialMessage || undefined} />;
  }

  if (toolId !== undefined) {
    if (catalog.isPending) return <PageSpinner label="Loading the tool" />;
    if (catalog.isError) {
      return <LoadError message="We couldn't load this tool." onRetry={() => void catalog.refetch()} retrying={catalog.isFetching} />;
    }
    const tool = findCatalogEntry(catalog.data, toolId);
    if (!tool) return <ChatNotFound what="tool" />;
    return <ChatView toolId={toolId} title={tool.title} initialMessage={tool.initialMessage || undefined} />;
  }

  return <ChatView title={DOCUMENT_CHAT_TITLE} />;
}
