import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { libraryKeys } from './keys';
import type { Assignment, AssignmentInput } from './types';

/** Creates an assignment (`POST db/assignment/put`); rejects with the server's 400 message. */
export async function createAssignment(input: AssignmentInput): Promise<Assignment> {
  const data = await api.post<{ assignment: Assignment }>('/api/v1/db/assignment/put', input);
  return data.assignment;
}

/** Creates an assignment and refreshes the library. */
export function useCreateAssignment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAssignment,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: libraryKeys.all }),
  });
}
