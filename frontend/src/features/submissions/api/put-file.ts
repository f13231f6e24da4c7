/** Why a PUT to a signed URL failed, in words a teacher can act on. */
export class UploadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UploadError';
  }
}

function messageFor(xhr: XMLHttpRequest): string {
  try {
    const body = JSON.parse(xhr.responseText) as { error?: { message?: unknown } };
    if (typeof body?.error?.message === 'string' && body.error.message.trim() !== '') return body.error.message;
  } catch {
    // Storage answers in plain text or XML: fall back to a message by status.
  }
  switch (xhr.status) {
    case 413:
      return 'This file is larger than the upload limit.';
    case 403:
      return 'The upload link was refused or has expired. Please try again.';
    default:
      return `The upload failed (status ${xhr.status}). Please try again.`;
  }
}

/**
 * Sends `file` to a signed URL with PUT and `Content-Type: fileType`, reporting progress (0–1).
 * Uses XMLHttpRequest because fetch reports no upload progress. Rejects with an
 * {@link UploadError}; an aborted upload rejects with an AbortError DOMException.
 */
export function putFile(
  signedUrl: string,
  file: Blob,
  fileType: string,
  { onProgress, signal }: { onProgress?: (fraction: number) => void; signal?: AbortSignal } = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    xhr.open('PUT', signedUrl);
    xhr.setRequestHeader('Content-Type', fileType);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(Math.min(1, event.loaded / event.total));
    };
    xhr.onload = () => {
      signal?.removeEventListener('abort', onAbort);
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress?.(1);
        resolve();
      } else {
        reject(new UploadError(messageFor(xhr)));
      }
    };
    xhr.onerror = () => {
      signal?.removeEventListener('abort', onAbort);
      reject(new UploadError('The file could not reach the server. Check your connection and try again.'));
    };
    xhr.onabort = () => {
      signal?.removeEventListener('abort', onAbort);
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
    };
    signal?.addEventListener('abort', onAbort);
    xhr.send(file);
  });
}
