import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { chatKeys } from './keys';

/** What the chat needs of an assistant: its heading and first message. */
export interface AssistantSummary {
  _id: string;
  title: string;
  initialMessage?: string;
}

/** A chat tool or workflow of the catalogue, as far as the chat needs it. */
export interface CatalogEntry {
  id: string;
  title: string;
  initialMessage?: string;
}

/** The catalogue: built-in tools and workflows. */
export interface CatalogSummary {
  tools: CatalogEntry[];
  workflows: CatalogEntry[];
}

/** The team's saved assistants and the teacher's own (`POST /api/v1/db/assistant/list`). */
export async function listAssistants(options: { signal?: AbortSignal } = {}): Promise<AssistantSummary[]> {
  const data = await api.post<{ assistants?: AssistantSummary[] } | undefined>('/api/v1/db/assistant/list', {}, options);
  return data?.assistants ?? [];
}

/** The built-in tools and workflows (`GET /api/v1/catalog`). */
export async function getCatalog(options: { signal?: AbortSignal } = {}): Promise<CatalogSummary> {
  const data = await api.get<Partial<CatalogSummary> | undefined>('/api/v1/catalog', options);
  return { tools: data?.tools ?? [], workflows: data?.workflows ?? [] };
}

/** The assistants a chat can be held with; `enabled` false waits. */
export function useAssistantSummaries(enabled = true) {
  return useQuery({ queryKey: chatKeys.assistants(), queryFn: ({ signal }) => listAssistants({ signal }), enabled });
}

/** The catalogue; `enabled` false waits. */
export function useCatalog(enabled = true) {
  return useQuery({ queryKey: chatKeys.catalog(), queryFn: ({ signal }) => getCatalog({ signal }), enabled });
}

/** A tool of the catalogue by id, or a workflow (a workflow's id continues its chat). */
export function findCatalogEntry(catalog: CatalogSummary, id: string): CatalogEntry | undefined {
  return catalog.tools.find((t) => t.id === id) ?? catalog.workflows.find((w) => w.id === id);
}
