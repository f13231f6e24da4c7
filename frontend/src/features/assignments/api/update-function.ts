import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { assignmentKeys } from './keys';
import type { FunctionInput } from './create-function';
import type { AssignmentFunction } from './types';

/** What `db/function/update` takes: a definition plus the id of the one it replaces. */
export type FunctionUpdate = FunctionInput & { functionId: string };

/** Replaces an assignment's definition (`POST db/function/update`). */
export async function updateFunction(input: FunctionUpdate): Promise<AssignmentFunction> {
  const data = await api.post<{ function: AssignmentFunction }>('/api/v1/db/function/update', input);
  return data.function;
}

/** Replaces a definition and refreshes its cached copy. */
export function useUpdateFunction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateFunction,
    onSuccess: (_fn, input) => queryClient.invalidateQueries({ queryKey: assignmentKeys.definition(input.assignmentId) }),
  });
}
