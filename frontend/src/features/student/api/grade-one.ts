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

/** What {@link gradeOne} resolves to. */
export interface GradeOneAnswer {
  /** The result's status now. */
  status: string;
  /**
   * Set when instant feedback waits for the teacher (the team's AI budget is spent): a sentence
   * for the student. The work is saved and the result not started.
   */
  message?: string;
}

/**
 * Asks the AI to grade one submission for the student's instant feedback (`POST
 * lambda/gradeOnePub`), authorised by the view token.
 */
export async function gradeOne({ assignmentId, submissionId, type, viewToken }: GradeOneInput): Promise<GradeOneAnswer> {
  const processName = assignmentTypeInfo(type)?.processName;
  if (!processName) throw new Error(`No grading process for ${type} assignments`);
  const data = await api.post<{ status?: string; message?: string } | undefined>('/api/v1/lambda/gradeOnePub', {
    submissionId,
    processName,
    assignmentId,
    ...(viewToken ? { viewToken } : {}),
  });
  return { status: data?.status ?? '', ...(data?.message ? { message: data.message } : {}) };
}

/** Starts grading one submission and refreshes its result, which the page then polls. */
export function useGradeOne() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: gradeOne,
    onSuccess: (_status, input) => queryClient.invalidateQueries({ queryKey: studentKeys.result(input.submissionId) }),
  });
}
