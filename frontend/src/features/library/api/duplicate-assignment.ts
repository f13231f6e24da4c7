import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { LibraryAssignment } from '../types';
import { invalidateLibrary } from './invalidate';

/**
 * Copies an assignment with its definition but no submissions, named 'Copy of …'
 * (`POST /api/v1/db/assignment/duplicate`).
 */
export async function duplicateAssignment({ assignmentId }: { assignmentId: string }): Promise<LibraryAssignment> {
  const data = await api.post<{ assignment: LibraryAssignment }>('/api/v1/db/assignment/duplicate', { assignmentId });
  return data.assignment;
}

/** Duplicates an assignment and refreshes the library. */
export function useDuplicateAssignment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: duplicateAssignment,
    onSuccess: () => {
      void invalidateLibrary(queryClient);
    },
  });
}
