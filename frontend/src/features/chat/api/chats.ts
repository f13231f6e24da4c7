import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { chatTitle } from '../lib/chat-title';
import type { ChatDoc, ChatState } from '../types';
import { chatKeys } from './keys';

/** The teacher's saved chats in the current team, newest first (`PUT /api/v1/db/chat/get`). */
export async function listChats(options: { signal?: AbortSignal } = {}): Promise<ChatDoc[]> {
  const data = await api.put<{ chatDocs?: ChatDoc[] } | undefined>('/api/v1/db/chat/get', {}, options);
  return data?.chatDocs ?? [];
}

/** Query options for the saved chats. */
export function chatListQueryOptions() {
  return queryOptions({ queryKey: chatKeys.list(), queryFn: ({ signal }) => listChats({ signal }) });
}

/** The teacher's saved chats; `enabled` false waits (e.g. until the list is opened). */
export function useChatList(enabled = true) {
  return useQuery({ ...chatListQueryOptions(), enabled });
}

/** What {@link saveChat} sends. */
export interface SaveChatInput {
  chatState: ChatState;
  assistantId?: string;
  toolId?: string;
}

/** Saves a chat (`PUT /api/v1/db/chat/put`): creates it without chatId, else replaces it. Resolves to its id. */
export async function saveChat(input: SaveChatInput): Promise<string> {
  const data = await api.put<{ chatDoc: { _id: string } }>('/api/v1/db/chat/put', input);
  return data.chatDoc._id;
}

/**
 * Saves a chat. The saved state goes into the cached list at once (so a chat reopened at its new
 * address shows without waiting), then the list is refetched.
 */
export function useSaveChat() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveChat,
    onSuccess: (id, { chatState, assistantId, toolId }) => {
      const now = new Date().toISOString();
      queryClient.setQueryData<ChatDoc[]>(chatKeys.list(), (old = []) => {
        const previous = old.find((c) => c._id === id);
        const saved: ChatDoc = {
          _id: id,
          title: chatTitle(chatState.messages),
          messages: chatState.messages,
          document: chatState.document,
          pastDocuments: chatState.pastDocuments,
          assistantId: assistantId ?? previous?.assistantId ?? null,
          toolId: toolId ?? previous?.toolId ?? '',
          createdAt: previous?.createdAt ?? now,
          updatedAt: now,
        };
        return [saved, ...old.filter((c) => c._id !== id)];
      });
      void queryClient.invalidateQueries({ queryKey: chatKeys.list() });
    },
  });
}

/** Deletes a saved chat (`POST /api/v1/db/chat/delete`). */
export async function deleteChat(chatId: string): Promise<void> {
  await api.post('/api/v1/db/chat/delete', { chatId });
}

/** Deletes a saved chat and refreshes the list. */
export function useDeleteChat() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteChat,
    onSuccess: (_data, chatId) => {
      queryClient.setQueryData<ChatDoc[]>(chatKeys.list(), (old) => old?.filter((c) => c._id !== chatId));
      void queryClient.invalidateQueries({ queryKey: chatKeys.list() });
    },
  });
}
