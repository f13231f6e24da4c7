import { ApiError, CSRF_HEADER, getCsrfToken, type ApiErrorBody } from '../../../lib/api-client';

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
export interface ExportFile {
  blob: Blob;
  fileName: string;
}

/**
 * The file name of a `Content-Disposition: attachment` header: the UTF-8 `filename*` when there
 * is one, else `filename`, else `fallback`.
 */
export function fileNameFrom(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // A malformed escape: the plain name below will do.
    }
  }
  const plain = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header) ?? /filename\s*=\s*([^;]+)/i.exec(header);
  return plain ? plain[1].replace(/\\(.)/g, '$1').trim() : fallback;
}

/**
 * Asks the server for an assignment's results as a spreadsheet. The answer is the file itself,
 * not JSON, so it is read as a blob; a refusal rejects with an ApiError carrying the server's
 * message ("Choose CSV or Excel (XLSX).", "Not found").
 */
export async function exportResults(req: ExportRequest): Promise<ExportFile> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  const token = await getCsrfToken();
  if (token) headers[CSRF_HEADER] = token;
  let res: Response;
  try {
    res = await fetch('/api/v1/db/assignment/export', {
      method: 'POST',
      headers,
      body: JSON.stringify(req),
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
  const fallback = `results.${req.format}`;
  return { blob: await res.blob(), fileName: fileNameFrom(res.headers.get('Content-Disposition'), fallback) };
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
  // Give the browser a moment to start the download before the address goes away.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
