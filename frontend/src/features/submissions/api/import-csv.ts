import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { AssignmentQueryKey } from './keys';
import type { AssignmentType, CsvMapping } from './types';

/** What `db/assignment/update-submissions-csv` takes: the uploaded CSV and how to read it. */
export interface ImportCsvInput {
  assignmentId: string;
  submissionRole: 'teacher';
  type: AssignmentType;
  csvLocation: string;
  parsedCSV: CsvMapping;
}

/** Turns a CSV's rows into submissions; resolves to how many were imported. */
export async function importCsv(input: ImportCsvInput): Promise<number> {
  const data = await api.post<{ imported?: number; submissions?: unknown[] }>(
    '/api/v1/db/assignment/update-submissions-csv',
    input,
  );
  return data?.imported ?? data?.submissions?.length ?? 0;
}

/** Imports a CSV and refreshes the assignment that lists the new submissions. */
export function useImportCsv(assignmentQueryKey: AssignmentQueryKey) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importCsv,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: assignmentQueryKey }),
  });
}
