import { useQuery } from '@tanstack/react-query';
import { assistantListQueryOptions } from '../../../lib/assistants';
import { catalogQueryOptions } from '../../../lib/catalog';

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

/** The assistants a chat can be held with (the shared assistant list, lib/assistants); `enabled` false waits. */
export function useAssistantSummaries(enabled = true) {
  return useQuery({ ...assistantListQueryOptions(), enabled });
}

/** The catalogue (shared with the tools page, lib/catalog); `enabled` false waits. */
export function useCatalog(enabled = true) {
  return useQuery({ ...catalogQueryOptions(), enabled });
}

/** A tool of the catalogue by id, or a workflow (a workflow's id continues its chat). */
export function findCatalogEntry(catalog: CatalogSummary, id: string): CatalogEntry | undefined {
  return catalog.tools.find((t) => t.id === id) ?? catalog.workflows.find((w) => w.id === id);
}
