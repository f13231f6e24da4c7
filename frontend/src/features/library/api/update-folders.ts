import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { fetchTeamId } from '../../../lib/current-user';
import type { Folder, Library } from '../types';
import { invalidateLibrary } from './invalidate';
import { libraryKeys } from './keys';

/**
 * Replaces the team's folders (`POST /api/v1/db/team/update-folders`). `newFolders` is the whole
 * list: a folder left out is deleted (its assignments return to the top level), and an assignment
 * may sit in at most one folder.
 */
export async function updateFolders({ teamId, newFolders }: { teamId: string; newFolders: Folder[] }): Promise<Folder[]> {
  const data = await api.post<{ folders?: Folder[] } | undefined>('/api/v1/db/team/update-folders', { teamId, newFolders });
  return data?.folders ?? newFolders;
}

/** Replaces the current team's folders, shows the result at once and refreshes the library. */
export function useUpdateFolders() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ newFolders }: { newFolders: Folder[] }) =>
      updateFolders({ teamId: await fetchTeamId(queryClient), newFolders }),
    onSuccess: (folders) => {
      queryClient.setQueryData<Library>(libraryKeys.all, (library) => (library ? { ...library, folders } : library));
      return invalidateLibrary(queryClient);
    },
  });
}
