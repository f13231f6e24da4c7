import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { assignmentKeys, libraryKeys } from './keys';
import type { AssignmentFunction, DefinitionInput } from './types';

/** What `db/function/put` takes: the assignment's id and its type-specific definition. */
export type FunctionInput = { assignmentId: string } & DefinitionInput;

/** The message the server sends for a second `function/put` on the same assignment. */
export const DEFINITION_EXISTS_MESSAGE = 'This assignment already has a definition';

/** Saves an assignment's definition for the first time (`POST db/function/put`). */
export async function createFunction(input: FunctionInput): Promise<AssignmentFunction> {
  const data = await api.post<{ function: AssignmentFunction }>('/api/v1/db/function/put', input);
  return data.function;
}

/** Saves a new definition and refreshes the assignment's cached definition and the library. */
export function useCreateFunction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createFunction,
    onSuccess: (_fn, input) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: assignmentKeys.definition(input.assignmentId) }),
        queryClient.invalidateQueries({ queryKey: libraryKeys.all }),
      ]),
  });
}
