import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { assignmentKeys } from './keys';
import { normalizeQuestions, normalizeRubric } from './normalize';
import type { AssignmentFunction, AssignmentType } from './types';

/** Fetches an assignment's definition (`POST db/function/get`); 404 when it has none yet. */
export async function getFunction(
  input: { type: AssignmentType; assignmentId: string },
  options: { signal?: AbortSignal } = {},
): Promise<AssignmentFunction> {
  const data = await api.post<{ function?: AssignmentFunction }>('/api/v1/db/function/get', input, options);
  const fn = data?.function;
  if (!fn) throw new Error('The server sent no definition');
  return {
    ...fn,
    highlights: fn.highlights ?? [],
    questions: normalizeQuestions(fn.questions),
    rubric: fn.rubric ? normalizeRubric(fn.rubric) : undefined,
  };
}

/** Query options for an assignment's definition; waits until the type is known. */
export function functionQueryOptions(assignmentId: string, type: AssignmentType | undefined) {
  return queryOptions({
    queryKey: assignmentKeys.definition(assignmentId),
    queryFn: ({ signal }) => getFunction({ type: type as AssignmentType, assignmentId }, { signal }),
    enabled: type !== undefined,
  });
}

/** An assignment's definition, fetched once its type is known. */
export function useAssignmentFunction(assignmentId: string, type: AssignmentType | undefined) {
  return useQuery(functionQueryOptions(assignmentId, type));
}
