/** A PUT of a file to a signed URL that did not succeed. */
export class UploadError extends Error {
  /** HTTP status, or 0 when no response arrived. */
  readonly status: number;

  constructor(status: number) {
    super(status ? `Upload failed with status ${status}` : 'Upload failed: network error');
    this.name = 'UploadError';
    this.status = status;
  }
}

/**
 * PUTs `file` to a signed URL with its media type, reporting progress as a fraction from 0 to 1.
 * XMLHttpRequest rather than fetch: only it reports upload progress.
 */
export function uploadFile(
  signedUrl: string,
  file: Blob,
  contentType: string,
  onProgress: (fraction: number) => void = () => {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', signedUrl);
    xhr.setRequestHeader('Content-Type', contentType);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve();
      } else {
        reject(new UploadError(xhr.status));
      }
    };
    xhr.onerror = () => reject(new UploadError(0));
    xhr.onabort = () => reject(new UploadError(0));
    xhr.send(file);
  });
}
