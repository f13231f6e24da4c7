import { api } from '../../../lib/api-client';

/** What `s3-pub-upload` takes: the file's sanitised name, type and size, and the link token. */
export interface StudentUploadRequest {
  fileName: string;
  fileType: string;
  fileSize: number;
  linkToken: string;
}

/** Where to PUT the file, and the location to hand back when submitting. */
export interface StudentUpload {
  signedUrl: string;
  location: string;
}

/** The address without its query string (the spec's "file URL"). */
function withoutQuery(url: string): string {
  return url.split(/[?#]/, 1)[0] ?? url;
}

/**
 * Asks for a signed upload URL through a student link (`POST s3-pub-upload`). The location is
 * the server's `location` (or `key`), else the signed URL without its query string.
 */
export async function requestStudentUpload(input: StudentUploadRequest): Promise<StudentUpload> {
  const data = await api.post<{ signedUrl?: string; location?: string; key?: string } | undefined>(
    '/api/v1/s3-pub-upload',
    input,
  );
  if (!data?.signedUrl) throw new Error('The server sent no upload URL');
  return { signedUrl: data.signedUrl, location: data.location || data.key || withoutQuery(data.signedUrl) };
}
