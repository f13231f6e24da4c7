import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Assistant } from '../types';
import { assistantKeys } from './keys';

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

/** The assistants the teacher can see. */
export function useAssistants() {
  return useQuery(assistantListQueryOptions());
}
