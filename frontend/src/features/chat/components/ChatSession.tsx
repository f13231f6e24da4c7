import AddCommentOutlined from '@mui/icons-material/AddCommentOutlined';
import HistoryRounded from '@mui/icons-material/HistoryRounded';
import SaveOutlined from '@mui/icons-material/SaveOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { PageHeader } from '../../../components/PageHeader';
import { useUnsavedChangesGuard, type UnsavedChangesWording } from '../../../components/UnsavedChangesDialog';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import { useSingleFlight } from '../../../lib/use-single-flight';
import { useSaveChat } from '../api/chats';
import { uploadAndReadFiles } from '../api/read-files';
import { useChatSession } from '../hooks/use-chat-session';
import { FILES_READ_ERROR, filesReadMessage, filesReadSystemMessage } from '../lib/files-read';
import { savedMessages, type SessionStart } from '../lib/session';
import { editIndexes } from '../lib/versions';
import type { WorkflowRun } from '../types';
import { Composer } from './Composer';
import { DocumentPane } from './DocumentPane';
import { MessageList } from './MessageList';
import { PreviousChats } from './PreviousChats';

/** Props of {@link ChatSession}. */
export interface ChatSessionProps {
  title: string;
  /** Shown under the heading, above the conversation. */
  intro?: ReactNode;
  start: SessionStart;
  workflow?: WorkflowRun;
  /** The chat got its id from its first save. */
  onSaved: (chatId: string) => void;
  /** Starts a new chat with the same assistant or tool, at `path`. */
  onNewChat: (path: string) => void;
}

/** Where a new chat like this one starts. */
function newChatPath(assistantId?: string, toolId?: string, workflow?: WorkflowRun): string {
  if (assistantId) return `/assistants/${encodeURIComponent(assistantId)}/chat`;
  // A workflow's new chat is its form again (its id is also the chat's toolId).
  if (workflow) return `/workflows/${encodeURIComponent(workflow.id)}`;
  if (toolId) return `/tools/${encodeURIComponent(toolId)}/chat`;
  return '/chat';
}

const LEAVE_WORDING: UnsavedChangesWording = {
  title: 'Leave this chat without saving?',
  description: 'This chat has changes that are not saved. If you leave, they will be lost.',
  confirmLabel: 'Leave without saving',
  cancelLabel: 'Keep chatting',
};

/** One open chat: header with its actions, the conversation and composer, and the document beside it. */
export function ChatSession({ title, intro, start, workflow, onSaved, onNewChat }: ChatSessionProps) {
  const session = useChatSession(start, workflow);
  const { state, streaming } = session;
  const navigate = useNavigate();
  const { showToast } = useToast();
  const save = useSaveChat();
  const once = useSingleFlight();
  const [reading, setReading] = useState(false);
  const [historyOpen, setHistoryOpen] = useState(false);

  const documentIndexes = useMemo(() => new Set(state.pastDocuments.map((p) => p.messageIndex)), [state.pastDocuments]);
  const edits = useMemo(() => editIndexes(state.messages, state.pastDocuments), [state.messages, state.pastDocuments]);
  const hasDocument = state.document !== '' || state.pastDocuments.length > 0;
  const unsaved = state.revision !== state.savedRevision;
  const status = !state.chatId ? 'Not saved yet' : unsaved ? 'Unsaved changes' : 'Saved';
  // Worth asking about: something the teacher said or a document, not just the greeting.
  const unsavedWork = unsaved && (state.document !== '' || state.messages.some((m) => m.role === 'user'));
  const guard = useUnsavedChangesGuard(unsavedWork, LEAVE_WORDING);
  const [confirmNew, setConfirmNew] = useState(false);

  // A double click saves once: a chat's first save creates it, so a second would be a second chat.
  const onSave = () =>
    void once(async () => {
      const revision = state.revision;
      const firstSave = !state.chatId;
      const chatId = await save.mutateAsync({
        chatState: {
          messages: savedMessages(state.messages),
          document: state.document,
          pastDocuments: state.pastDocuments,
          chatId: state.chatId,
        },
        assistantId: state.assistantId,
        toolId: state.toolId,
      });
      session.markSaved(chatId, revision);
      showToast({ type: 'success', message: 'Chat saved' });
      if (firstSave) {
        onSaved(chatId);
        // The chat stays open under its new address: no need to ask.
        guard.allowLeave();
        void navigate(`/chat/${encodeURIComponent(chatId)}`, { replace: true });
      }
    }).catch((err: unknown) => showToast({ type: 'error', message: errorMessage(err, 'The chat could not be saved.') }));

  const attach = async (files: File[]) => {
    const names = files.map((f) => f.name);
    setReading(true);
    try {
      const texts = await uploadAndReadFiles(files);
      session.appendMessages([
        { role: 'system', content: filesReadSystemMessage(names, texts) },
        { role: 'assistant', content: filesReadMessage(names) },
      ]);
    } catch (err) {
      session.appendMessages([{ role: 'assistant', content: FILES_READ_ERROR }]);
      const reason = err instanceof Error && err.name !== 'ApiError' ? err.message : '';
      showToast({ type: 'error', message: errorMessage(err, reason || FILES_READ_ERROR) });
    } finally {
      setReading(false);
    }
  };

  const newChat = () => {
    guard.allowLeave();
    onNewChat(newChatPath(state.assistantId, state.toolId, workflow));
  };
  const startNew = () => (unsavedWork ? setConfirmNew(true) : newChat());

  return (
    <Box sx={{ minWidth: 0 }}>
      <PageHeader
        title={title}
        subtitle={<span aria-live="polite">{status}</span>}
        actions={
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
            <Button startIcon={<HistoryRounded />} onClick={() => setHistoryOpen(true)}>
              Previous chats
            </Button>
            <Button startIcon={<AddCommentOutlined />} onClick={startNew} disabled={streaming}>
              New chat
            </Button>
            <Button
              variant="contained"
              startIcon={<SaveOutlined />}
              onClick={onSave}
              loading={save.isPending}
              disabled={streaming || (state.messages.length === 0 && state.document === '')}
            >
              Save chat
            </Button>
          </Box>
        }
      />
      {intro && <Box sx={{ mb: 3 }}>{intro}</Box>}
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: hasDocument ? 'minmax(0, 1fr) minmax(0, 1fr)' : 'minmax(0, 1fr)' },
          gap: 3,
          alignItems: 'start',
          minWidth: 0,
        }}
      >
        <Box component="section" aria-label="Conversation" sx={{ display: 'flex', flexDirection: 'column', gap: 2, minWidth: 0 }}>
          <Box sx={{ minWidth: 0, maxHeight: { md: 'calc(100vh - 300px)' }, minHeight: { md: 320 }, overflowY: { md: 'auto' }, pr: { md: 1 } }}>
            {state.messages.length === 0 && !state.live && (
              <Box sx={{ color: 'text.secondary', py: 4, textAlign: 'center' }}>
                Ask for a document (a lesson plan, a quiz, a letter) and it opens beside the chat, ready to edit and download.
              </Box>
            )}
            <MessageList
              messages={state.messages}
              documentIndexes={documentIndexes}
              live={state.live}
              error={state.error}
              omittedTurns={state.omittedTurns}
              onRetry={session.retry}
              onRetryStopped={session.retryStopped ?? undefined}
            />
          </Box>
          <Composer
            streaming={streaming}
            reading={reading}
            onSend={session.send}
            onStop={session.stop}
            onAttach={(files) => void attach(files)}
          />
        </Box>
        {hasDocument && (
          <DocumentPane
            document={state.document}
            pastDocuments={state.pastDocuments}
            edits={edits}
            streaming={streaming}
            onChange={session.setDocument}
          />
        )}
      </Box>
      <PreviousChats
        open={historyOpen}
        onClose={() => setHistoryOpen(false)}
        currentChatId={state.chatId}
        onOpen={(chatId) => {
          setHistoryOpen(false);
          if (chatId !== state.chatId) void navigate(`/chat/${encodeURIComponent(chatId)}`);
        }}
        onDeleted={(chatId) => {
          if (chatId === state.chatId) {
            setHistoryOpen(false);
            newChat();
          }
        }}
      />
      <ConfirmDialog
        open={confirmNew}
        title="Start a new chat without saving?"
        description="This chat has changes that are not saved. If you start a new chat, they will be lost."
        cancelLabel="Keep chatting"
        confirmLabel="Start new chat"
        onClose={() => setConfirmNew(false)}
        onConfirm={() => {
          setConfirmNew(false);
          newChat();
        }}
      />
      {guard.dialog}
    </Box>
  );
}
