import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Catalog, Workflow } from './types';
import { toolKeys } from './keys';

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
    queryKey: toolKeys.catalog(),
    queryFn: ({ signal }) => getCatalog({ signal }),
    staleTime: 10 * 60_000,
  });
}

/** The catalogue of tools and workflows. */
export function useCatalog() {
  return useQuery(catalogQueryOptions());
}
