import { ApiError, CSRF_HEADER, getCsrfToken, type ApiErrorBody } from '../../../lib/api-client';

/** The Word file's name (spec: Word export file name). */
export const DOCX_FILE_NAME = 'downloaded.docx';

/**
 * Turns markdown into a Word document (`POST /api/v1/chat/download-docx`) and resolves to its
 * bytes. The answer is the file itself, not JSON, so this reads it as a blob; a refusal rejects
 * with an ApiError carrying the server's message (e.g. 'Fetch image was failed: …').
 */
export async function downloadDocx(markdown: string): Promise<Blob> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  const token = await getCsrfToken();
  if (token) headers[CSRF_HEADER] = token;
  let res: Response;
  try {
    res = await fetch('/api/v1/chat/download-docx', {
      method: 'POST',
      headers,
      body: JSON.stringify({ markdown }),
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
  return res.blob();
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
