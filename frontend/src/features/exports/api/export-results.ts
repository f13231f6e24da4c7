import { postForFile, type DownloadedFile } from '../../../lib/download';

export { fileNameFrom, saveBlob } from '../../../lib/download';

/** The formats the server writes. */
export type ExportFormat = 'csv' | 'xlsx';

/** What `POST /api/v1/db/assignment/export` takes. */
export interface ExportRequest {
  assignmentId: string;
  format: ExportFormat;
  /** The rows to export; absent or empty exports every submission. */
  submissionIds?: string[];
  /** Adds the feedback text (overall and per question, criterion or highlighter). */
  includeFeedback?: boolean;
}

/** A downloaded export: the file and the name the server gave it. */
export type ExportFile = DownloadedFile;

/**
 * Asks the server for an assignment's results as a spreadsheet. The answer is the file itself,
 * not JSON, so it is read as a blob; a refusal rejects with an ApiError carrying the server's
 * message ("Choose CSV or Excel (XLSX).", "Not found").
 */
export async function exportResults(req: ExportRequest): Promise<ExportFile> {
  return postForFile('/api/v1/db/assignment/export', req, `results.${req.format}`);
}
