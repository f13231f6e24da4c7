import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { CsvMapping, CsvPreview } from './types';

function normalizeMapping(raw: Partial<CsvMapping> | undefined): CsvMapping {
  return {
    nameColumn: typeof raw?.nameColumn === 'number' ? raw.nameColumn : 0,
    emailColumn: typeof raw?.emailColumn === 'number' ? raw.emailColumn : -1,
    questions: Array.isArray(raw?.questions)
      ? raw.questions.filter((q) => typeof q?.question === 'number' && typeof q?.column === 'number')
      : [],
  };
}

/**
 * Reads an uploaded CSV's first rows and a suggested column mapping
 * (`POST db/assignment/preview-csv`); rejects with the server's message, e.g. 'Error reading CSV file…'.
 */
export async function previewCsv(input: { assignmentId: string; csvLocation: string }): Promise<CsvPreview> {
  const data = await api.post<Partial<CsvPreview>>('/api/v1/db/assignment/preview-csv', input);
  const headers = Array.isArray(data?.headers) ? data.headers.map(String) : [];
  const rows = Array.isArray(data?.rows) ? data.rows.filter(Array.isArray).map((r) => r.map(String)) : [];
  return {
    headers,
    rows,
    rowCount: typeof data?.rowCount === 'number' ? data.rowCount : rows.length,
    delimiter: typeof data?.delimiter === 'string' ? data.delimiter : ',',
    mapping: normalizeMapping(data?.mapping),
  };
}

/** Previews a CSV; nothing cached changes. */
export function usePreviewCsv() {
  return useMutation({ mutationFn: previewCsv });
}
