import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useState, type JSX, type ReactNode } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { LoadError } from '../../../components/LoadError';
import { PageSpinner } from '../../../components/PageSpinner';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useChatList } from '../api/chats';
import type { SessionStart } from '../lib/session';
import type { WorkflowRun } from '../types';
import { ChatSession } from './ChatSession';

/** Props of {@link ChatView}. */
export interface ChatViewProps {
  /** Chat with a saved assistant. */
  assistantId?: string;
  /** Chat with a built-in tool, or continue a workflow's chat. */
  toolId?: string;
  /** On mount, run this workflow once (its result opens in the document pane). */
  workflow?: WorkflowRun;
  /** Reopen a saved chat. */
  chatId?: string;
  /** Page heading, e.g. the assistant's title. */
  title: string;
  /** Shown (and saved) as the first assistant message of a new chat. */
  initialMessage?: string;
  /** Shown under the heading, above the conversation (a workflow's answers, say). */
  intro?: ReactNode;
}

/** Which chat the props name; a change starts or opens another one. */
function identityOf({ chatId, assistantId, toolId, workflow }: ChatViewProps): string {
  return chatId ? `chat:${chatId}` : `new:${assistantId ?? ''}:${toolId ?? ''}:${workflow?.id ?? ''}`;
}

/**
 * A chat with the model that writes documents: a new one (plain, with an assistant or a tool, or a
 * workflow's run) or a saved one reopened by `chatId`. A chat that gets its id from its first save
 * carries on in place when the address changes to `/chat/:chatId`.
 */
export function ChatView(props: ChatViewProps): JSX.Element {
  const { chatId, title, workflow, initialMessage, assistantId, toolId } = props;
  useDocumentTitle(title);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const identity = identityOf(props);
  const [track, setTrack] = useState({ identity, key: 0, ownId: undefined as string | undefined });
  if (track.identity !== identity) {
    const continued = chatId !== undefined && chatId === track.ownId;
    setTrack({ identity, key: continued ? track.key : track.key + 1, ownId: continued ? track.ownId : undefined });
  }
  const continuing = chatId !== undefined && chatId === track.ownId;
  const chats = useChatList(chatId !== undefined && !continuing);

  const onSaved = (id: string) => setTrack((t) => ({ ...t, ownId: id }));
  const onNewChat = (path: string) => {
    if (path === pathname) {
      if (!workflow) setTrack((t) => ({ ...t, key: t.key + 1, ownId: undefined }));
    } else {
      void navigate(path);
    }
  };

  let start: SessionStart;
  if (chatId !== undefined && !continuing) {
    if (chats.isPending) return <PageSpinner label="Loading the chat" />;
    if (chats.isError) {
      return <LoadError message="We couldn't load this chat." onRetry={() => void chats.refetch()} retrying={chats.isFetching} />;
    }
    const saved = chats.data.find((c) => c._id === chatId);
    if (!saved) return <ChatNotFound />;
    start = {
      messages: saved.messages ?? [],
      document: saved.document ?? '',
      pastDocuments: saved.pastDocuments ?? [],
      chatId,
      assistantId: saved.assistantId || assistantId || undefined,
      toolId: saved.toolId || toolId || undefined,
    };
  } else {
    start = {
      messages: initialMessage && !workflow ? [{ role: 'assistant', content: initialMessage }] : [],
      assistantId,
      toolId,
    };
  }

  return (
    <ChatSession
      key={track.key}
      title={title}
      intro={props.intro}
      start={start}
      workflow={chatId === undefined ? workflow : undefined}
      onSaved={onSaved}
      onNewChat={onNewChat}
    />
  );
}

/** A chat id that names no chat of this teacher. */
export function ChatNotFound({ what = 'chat' }: { what?: string }) {
  return (
    <Box sx={{ py: 6, textAlign: 'center', display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2 }}>
      <Typography variant="h1" sx={{ fontSize: '1.5rem' }}>
        This {what} was not found
      </Typography>
      <Typography color="text.secondary">It may have been deleted, or it belongs to someone else.</Typography>
      <Button component={RouterLink} to="/chat" variant="contained">
        Start a document chat
      </Button>
    </Box>
  );
}
