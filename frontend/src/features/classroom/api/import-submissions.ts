import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { readList, readText } from './read';
import type { ImportResult } from './types';

/** What `db/assignment/update-submissions-from-google` takes. */
export interface ImportFromClassroomInput {
  assignmentId: string;
  type: string;
  classId: string;
  courseworkId: string;
  /** Classroom student submission ids. */
  selectedStudentSubmissions: string[];
}

/**
 * Copies the Drive attachments of the chosen student submissions into the assignment, one
 * submission per file (`POST db/assignment/update-submissions-from-google`); resolves to how many
 * were created and what was skipped, and why.
 */
export async function importFromClassroom(input: ImportFromClassroomInput): Promise<ImportResult> {
  const data = await api.post<{ submissions?: unknown; skipped?: unknown } | undefined>(
    '/api/v1/db/assignment/update-submissions-from-google',
    input,
  );
  return {
    imported: Array.isArray(data?.submissions) ? data.submissions.length : 0,
    skipped: readList(data?.skipped, (s) => ({
      submissionId: readText(s, 'submissionId'),
      studentName: readText(s, 'studentName'),
      title: readText(s, 'title'),
      reason: readText(s, 'reason'),
    })),
  };
}

/** The key of the import mutation, so the dialog can tell an import is running. */
export const importMutationKey = ['google-classroom', 'import'] as const;

/** Imports from Classroom and refreshes the assignment query that lists the submissions. */
export function useImportFromClassroom(assignmentQueryKey: QueryKey) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: importMutationKey,
    mutationFn: importFromClassroom,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: assignmentQueryKey }),
  });
}
