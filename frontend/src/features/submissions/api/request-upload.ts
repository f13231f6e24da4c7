import { api } from '../../../lib/api-client';

/** What `s3-upload` takes: the key-to-be (folder prefix and name), media type and size. */
export interface UploadRequest {
  fileName: string;
  fileType: string;
  fileSize: number;
}

/** A signed upload: PUT the bytes to `signedUrl`; `location` is where the file then lives. */
export interface SignedUpload {
  signedUrl: string;
  location: string;
}

/** The address of a signed URL without its query string (the spec's "file URL"). */
export function withoutQuery(url: string): string {
  return url.split(/[?#]/, 1)[0];
}

/**
 * Asks for a signed upload URL (`POST s3-upload`); rejects with the server's message, e.g.
 * 'This file is larger than the 50 MB limit.'.
 */
export async function requestUpload(input: UploadRequest): Promise<SignedUpload> {
  const data = await api.post<{ signedUrl?: string }>('/api/v1/s3-upload', input);
  const signedUrl = data?.signedUrl;
  if (!signedUrl) throw new Error('The server sent no upload address');
  return { signedUrl, location: withoutQuery(signedUrl) };
}
