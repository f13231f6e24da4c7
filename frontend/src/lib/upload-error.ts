/**
 * Why a PUT to a signed URL failed, in words a teacher or student can act on. Apart from the
 * upload code (upload-file.ts) so that a page can tell this failure apart without loading it.
 */
export class UploadError extends Error {
  /** The storage's HTTP status, or 0 when no answer arrived. */
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = 'UploadError';
    this.status = status;
  }
}
