import { requestSignedUpload, type SignedUpload } from '../../../lib/upload-file';

/** What `s3-pub-upload` takes: the file's sanitized name, type and size, and the link token. */
export interface StudentUploadRequest {
  fileName: string;
  fileType: string;
  fileSize: number;
  linkToken: string;
}

/** Asks for a signed upload URL through a student link (`POST s3-pub-upload`). */
export function requestStudentUpload(input: StudentUploadRequest): Promise<SignedUpload> {
  return requestSignedUpload('/api/v1/s3-pub-upload', input);
}
