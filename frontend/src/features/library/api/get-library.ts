import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Library } from '../types';
import { libraryKeys } from './keys';

/** Fetches the team's folders, assignments and rubrics (`GET /api/v1/db/library/get`). */
export async function getLibrary(options: { signal?: AbortSignal } = {}): Promise<Library> {
  const data = await api.get<Partial<Library> | undefined>('/api/v1/db/library/get', options);
  return {
    assignments: data?.assignments ?? [],
    rubrics: data?.rubrics ?? [],
    folders: (data?.folders ?? []).map((folder) => ({ ...folder, assignments: folder.assignments ?? [] })),
  };
}

/** Query options for the library. */
export function libraryQueryOptions() {
  return queryOptions({
    queryKey: libraryKeys.all,
    queryFn: ({ signal }) => getLibrary({ signal }),
  });
}

/** The team's folders, assignments and rubrics. */
export function useLibrary() {
  return useQuery(libraryQueryOptions());
}
