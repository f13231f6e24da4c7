import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { assignmentKeys, libraryKeys } from './keys';
import type { Assignment, AssignmentInput } from './types';

/** What `db/assignment/update` takes: the assignment's id and all of its editable fields. */
export interface AssignmentUpdate extends AssignmentInput {
  id: string;
}

/** Saves an assignment's name and flags (`POST db/assignment/update`). */
export async function updateAssignment(input: AssignmentUpdate): Promise<Assignment> {
  const data = await api.post<{ assignment: Assignment }>('/api/v1/db/assignment/update', input);
  return data.assignment;
}

/** Saves an assignment and refreshes it and the library. */
export function useUpdateAssignment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAssignment,
    onSuccess: (_assignment, input) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: assignmentKeys.detail(input.id), exact: true }),
        // The assignment page's light read (get-assignment.ts) sits under the same key.
        queryClient.invalidateQueries({ queryKey: [...assignmentKeys.detail(input.id), 'page'], exact: true }),
        queryClient.invalidateQueries({ queryKey: libraryKeys.all }),
      ]),
  });
}
