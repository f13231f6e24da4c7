import { queryOptions } from '@tanstack/react-query';
import { api } from './api-client';
import { catalogKeys } from './query-keys';

/*
 * The catalogue of built-in tools and workflows, read by the tools page and by the chat (for a
 * tool's title and first message): one shape, one fetcher, one cache key.
 */

/** What a built-in tool opens: a chat with a ready-made assistant, or the rubric-from-sheet dialog. */
export type ToolKind = 'chat' | 'rubric';

/** A ready-made assistant of the catalogue (`GET /api/v1/catalog`). */
export interface Tool {
  id: string;
  title: string;
  description: string;
  initialMessage: string;
  kind: ToolKind;
}

/** The kinds of input a workflow's form asks for. */
export type WorkflowFieldKind = 'text' | 'textarea' | 'select';

/** One input of a workflow's form. */
export interface WorkflowField {
  name: string;
  label: string;
  kind: WorkflowFieldKind;
  required: boolean;
  /** The choices of a select field. */
  options?: string[];
  placeholder?: string;
  /** The longest answer the server accepts, in characters. */
  maxLength: number;
}

/** A guided form whose answers the model turns into a document. */
export interface Workflow {
  id: string;
  title: string;
  description: string;
  fields: WorkflowField[];
}

/** The whole catalogue: tools and workflows. */
export interface Catalog {
  tools: Tool[];
  workflows: Workflow[];
}

/** A workflow with every list present (the server may send null for an empty list). */
function normalizeWorkflow(workflow: Workflow): Workflow {
  return {
    ...workflow,
    fields: (workflow.fields ?? []).map((field) => ({ ...field, options: field.options ?? [] })),
  };
}

/** Fetches the built-in tools and workflows (`GET /api/v1/catalog`). */
export async function getCatalog(options: { signal?: AbortSignal } = {}): Promise<Catalog> {
  const data = await api.get<Partial<Catalog> | undefined>('/api/v1/catalog', options);
  return {
    tools: data?.tools ?? [],
    workflows: (data?.workflows ?? []).map(normalizeWorkflow),
  };
}

/** Query options for the catalogue. It changes only with a deploy, so it stays fresh for long. */
export function catalogQueryOptions() {
  return queryOptions({
    queryKey: catalogKeys.all,
    queryFn: ({ signal }) => getCatalog({ signal }),
    staleTime: 10 * 60_000,
  });
}
