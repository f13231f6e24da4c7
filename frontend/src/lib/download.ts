import { ApiError, CSRF_HEADER, getCsrfToken, type ApiErrorBody } from './api-client';

/** A file the server answered with: its bytes and the name it gave it. */
export interface DownloadedFile {
  blob: Blob;
  fileName: string;
}

/**
 * The file name of a `Content-Disposition: attachment` header (RFC 6266): the UTF-8 `filename*`
 * (RFC 5987) when there is one, else `filename`, else `fallback`.
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
  return (plain ? plain[1].replace(/\\(.)/g, '$1').trim() : '') || fallback;
}

/**
 * POSTs `body` as JSON (with the CSRF token, as the API client does) to a route whose answer is a
 * file, not JSON, and reads it as a blob named by its Content-Disposition (`fallbackName`
 * without one). A refusal rejects with an ApiError carrying the server's message.
 */
export async function postForFile(path: string, body: unknown, fallbackName: string): Promise<DownloadedFile> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  const token = await getCsrfToken();
  if (token) headers[CSRF_HEADER] = token;
  let res: Response;
  try {
    res = await fetch(path, { method: 'POST', headers, body: JSON.stringify(body), credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, {});
  }
  if (!res.ok) {
    let err: ApiErrorBody = {};
    try {
      const parsed: unknown = JSON.parse(await res.text());
      if (typeof parsed === 'object' && parsed !== null) err = parsed as ApiErrorBody;
    } catch {
      // Not JSON: the status says enough.
    }
    throw new ApiError(res.status, err);
  }
  return { blob: await res.blob(), fileName: fileNameFrom(res.headers.get('Content-Disposition'), fallbackName) };
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
