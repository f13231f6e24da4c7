import { queryOptions } from '@tanstack/react-query';
import { api } from './api-client';
import { assistantKeys } from './query-keys';

/*
 * Saved assistants, read by the assistant screens and by the chat (an assistant's title and first
 * message): one shape, one fetcher, one cache key.
 */

/** A file attached to an assistant: its name, the text read from it and its media type. */
export interface AssistantFile {
  fileName: string;
  fileText: string;
  fileType: string;
}

/** What an assistant is made of (spec §3 "Assistant"): what put and update send. */
export interface AssistantInput {
  title: string;
  description: string;
  systemPrompt: string;
  initialMessage: string;
  fileData: AssistantFile[];
  imageURL: string;
}

/** A saved assistant as `db/assistant/list` returns it. */
export interface Assistant extends AssistantInput {
  _id: string;
  createdAt: string;
  updatedAt: string;
  /** Saved for the team (it shows for every teammate). */
  isSaved: boolean;
  /** Made by the signed-in teacher. */
  isMine: boolean;
}

/**
 * The team's saved assistants and the teacher's own, newest first (`POST db/assistant/list`).
 * Missing lists and fields are filled in so the screens can rely on them.
 */
export async function listAssistants(options: { signal?: AbortSignal } = {}): Promise<Assistant[]> {
  const data = await api.post<{ assistants?: Assistant[] | null } | undefined>('/api/v1/db/assistant/list', {}, options);
  return (data?.assistants ?? []).map((assistant) => ({
    ...assistant,
    description: assistant.description ?? '',
    systemPrompt: assistant.systemPrompt ?? '',
    initialMessage: assistant.initialMessage ?? '',
    imageURL: assistant.imageURL ?? '',
    fileData: assistant.fileData ?? [],
  }));
}

/** Query options for the assistant list. */
export function assistantListQueryOptions() {
  return queryOptions({
    queryKey: assistantKeys.list(),
    queryFn: ({ signal }) => listAssistants({ signal }),
  });
}
