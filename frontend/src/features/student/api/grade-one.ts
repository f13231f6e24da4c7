import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { assignmentTypeInfo } from '../../../lib/assignment-type';
import { studentKeys } from './keys';

/** What {@link gradeOne} takes. */
export interface GradeOneInput {
  assignmentId: string;
  submissionId: string;
  /** The assignment's type, which picks the process. */
  type: string;
  viewToken: string | null;
}

/**
 * Asks the AI to grade one submission for the student's instant feedback (`POST
 * lambda/gradeOnePub`), authorised by the view token. Resolves to the result's new status.
 */
export async function gradeOne({ assignmentId, submissionId, type, viewToken }: GradeOneInput): Promise<string> {
  const processName = assignmentTypeInfo(type)?.processName;
  if (!processName) throw new Error(`No grading process for ${type} assignments`);
  const data = await api.post<{ status?: string } | undefined>('/api/v1/lambda/gradeOnePub', {
    submissionId,
    processName,
    assignmentId,
    ...(viewToken ? { viewToken } : {}),
  });
  return data?.status ?? '';
}

/** Starts grading one submission and refreshes its result, which the page then polls. */
export function useGradeOne() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: gradeOne,
    onSuccess: (_status, input) => queryClient.invalidateQueries({ queryKey: studentKeys.result(input.submissionId) }),
  });
}
