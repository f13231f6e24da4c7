import { api } from '../../../lib/api-client';
import { postForFile, type DownloadedFile } from '../../../lib/download';

export { fileNameFrom, saveBlob } from '../../../lib/download';

/** A "Print reports" run of an assignment (`reports/get`, `reports/start`). */
export interface ReportRun {
  _id: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  done: number;
  total: number;
  error?: string;
  createdAt: string;
  /** Signed URL of the ZIP of one PDF per student (when done). */
  zipUrl?: string;
  /** Signed URL of all the reports in one PDF, to print (when done). */
  pdfUrl?: string;
}

/** Query keys of report runs. */
export const reportKeys = {
  all: ['reports'] as const,
  latest: (assignmentId: string) => ['reports', assignmentId] as const,
};

/** True while the run is still being built (the dialog polls it). */
export function inProgress(run: ReportRun | null | undefined): boolean {
  return run?.status === 'queued' || run?.status === 'running';
}

/** The assignment's latest run, or null when reports were never made. */
export async function getReportRun(assignmentId: string, signal?: AbortSignal): Promise<ReportRun | null> {
  const data = await api.post<{ report?: ReportRun | null }>('/api/v1/db/assignment/reports/get', { assignmentId }, { signal });
  return data?.report ?? null;
}

/** Starts a run over the chosen submissions (all of them when none are chosen). 409: one is already running. */
export async function startReportRun(assignmentId: string, submissionIds: string[]): Promise<ReportRun> {
  const data = await api.post<{ report: ReportRun }>('/api/v1/db/assignment/reports/start', {
    assignmentId,
    ...(submissionIds.length > 0 ? { submissionIds } : {}),
  });
  return data.report;
}

/**
 * One student's report as a PDF (`POST db/assignment/report/student`), named by the server; a
 * refusal rejects with an ApiError carrying the server's sentence.
 */
export async function downloadStudentReport(assignmentId: string, submissionId: string): Promise<DownloadedFile> {
  return postForFile('/api/v1/db/assignment/report/student', { assignmentId, submissionId }, 'report.pdf');
}
