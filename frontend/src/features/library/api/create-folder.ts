import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { fetchTeamId } from '../../../lib/current-user';
import type { Folder } from '../types';
import { invalidateLibrary } from './invalidate';

/** Creates an empty folder (`POST /api/v1/db/team/create-folder`). */
export async function createFolder({ teamId, folderName }: { teamId: string; folderName: string }): Promise<Folder> {
  const data = await api.post<{ folder: Folder }>('/api/v1/db/team/create-folder', { teamId, folderName });
  return data.folder;
}

/** Creates a folder in the current team and refreshes the library. */
export function useCreateFolder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ folderName }: { folderName: string }) =>
      createFolder({ teamId: await fetchTeamId(queryClient), folderName }),
    onSuccess: () => invalidateLibrary(queryClient),
  });
}
