import { api } from './api-client';
import { UploadError } from './upload-error';

export { UploadError };

/** A signed upload: PUT the bytes to `signedUrl`; `location` is what names the file afterwards. */
export interface SignedUpload {
  signedUrl: string;
  location: string;
}

/** The address of a URL without its query string or fragment (the spec's "file URL"). */
export function withoutQuery(url: string): string {
  return url.split(/[?#]/, 1)[0];
}

/**
 * Asks for a signed upload URL (`s3-upload`, or `s3-pub-upload` through a student link) and
 * rejects with the server's refusal (an ApiError, e.g. 'This file is larger than the 50 MB
 * limit.'). The location is the server's `location` when it sends one, else the signed URL
 * without its query string, as the spec has it.
 */
export async function requestSignedUpload(path: string, body: object): Promise<SignedUpload> {
  const data = await api.post<{ signedUrl?: string; location?: string } | undefined>(path, body);
  const signedUrl = data?.signedUrl;
  if (!signedUrl) throw new Error('The server sent no upload address');
  return { signedUrl, location: data.location || withoutQuery(signedUrl) };
}


/** The failure message of a finished PUT: the storage's own JSON message, else one by status. */
function messageFor(xhr: XMLHttpRequest): string {
  try {
    const body = JSON.parse(xhr.responseText) as { error?: { message?: unknown } } | null;
    if (typeof body?.error?.message === 'string' && body.error.message.trim() !== '') return body.error.message;
  } catch {
    // Storage answers in plain text or XML: fall back to a message by status.
  }
  switch (xhr.status) {
    case 413:
      return 'This file is larger than the upload limit.';
    case 403:
      return 'The upload link was refused or has expired. Please try again.';
    case 409:
    case 412:
      return 'This upload link has already been used, and the file sent with it cannot be replaced. To send a different file, upload it again.';
    default:
      return `The upload failed (status ${xhr.status}). Please try again.`;
  }
}

function cancelled(): DOMException {
  return new DOMException('The upload was cancelled.', 'AbortError');
}

/**
 * Sends `file` to a signed URL with PUT, `Content-Type: contentType` and `If-None-Match: *`,
 * reporting progress as a fraction from 0 to 1 (1 once the storage has accepted it). Upload URLs
 * write once: S3 signs `If-None-Match: *` into the URL (a conditional write) and answers 412 to a
 * second PUT, as the local store does. Uses XMLHttpRequest because fetch
 * reports no upload progress. Rejects with an {@link UploadError}; a cancelled upload (`signal`)
 * rejects with an AbortError DOMException.
 */
export function uploadFile(
  signedUrl: string,
  file: Blob,
  contentType: string,
  { onProgress, signal }: { onProgress?: (fraction: number) => void; signal?: AbortSignal } = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(cancelled());
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const settle = (outcome: () => void) => {
      signal?.removeEventListener('abort', onAbort);
      outcome();
    };
    xhr.open('PUT', signedUrl);
    xhr.setRequestHeader('Content-Type', contentType);
    xhr.setRequestHeader('If-None-Match', '*');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(Math.min(1, event.loaded / event.total));
    };
    xhr.onload = () =>
      settle(() => {
        if (xhr.status >= 200 && xhr.status < 300) {
          onProgress?.(1);
          resolve();
        } else {
          reject(new UploadError(xhr.status, messageFor(xhr)));
        }
      });
    xhr.onerror = () =>
      settle(() => reject(new UploadError(0, 'The file could not reach the server. Check your connection and try again.')));
    xhr.onabort = () => settle(() => reject(cancelled()));
    signal?.addEventListener('abort', onAbort);
    xhr.send(file);
  });
}
