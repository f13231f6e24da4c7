import { api, ApiError, CSRF_HEADER, getCsrfToken, type ApiErrorBody } from '../../../lib/api-client';

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

/** The file name of a `Content-Disposition` header (RFC 6266 / 5987), or `fallback`. */
export function fileNameFrom(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
  if (star) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // Not percent-encoded after all: try the plain name.
    }
  }
  const plain = /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;]+)/.exec(disposition);
  return (plain?.[1] ?? plain?.[2]?.trim()) || fallback;
}

/**
 * One student's report as a PDF (`POST db/assignment/report/student`): the answer is the file
 * itself, so it is read as a blob; a refusal rejects with an ApiError carrying the server's sentence.
 */
export async function downloadStudentReport(assignmentId: string, submissionId: string): Promise<{ blob: Blob; fileName: string }> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  const token = await getCsrfToken();
  if (token) headers[CSRF_HEADER] = token;
  let res: Response;
  try {
    res = await fetch('/api/v1/db/assignment/report/student', {
      method: 'POST',
      headers,
      body: JSON.stringify({ assignmentId, submissionId }),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, {});
  }
  if (!res.ok) {
    let body: ApiErrorBody = {};
    try {
      const parsed: unknown = JSON.parse(await res.text());
      if (typeof parsed === 'object' && parsed !== null) body = parsed as ApiErrorBody;
    } catch {
      // Not JSON: the status says enough.
    }
    throw new ApiError(res.status, body);
  }
  return { blob: await res.blob(), fileName: fileNameFrom(res.headers.get('Content-Disposition'), 'report.pdf') };
}

/** Hands `blob` to the browser as a download named `fileName`. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
