import { requestSignedUpload, type SignedUpload } from '../../../lib/upload-file';

/** What `s3-upload` takes: the key-to-be (folder prefix and name), media type and size. */
export interface UploadRequest {
  fileName: string;
  fileType: string;
  fileSize: number;
}

/**
 * Asks for a signed upload URL (`POST s3-upload`); rejects with the server's message, e.g.
 * 'This file is larger than the 50 MB limit.'.
 */
export function requestUpload(input: UploadRequest): Promise<SignedUpload> {
  return requestSignedUpload('/api/v1/s3-upload', input);
}
