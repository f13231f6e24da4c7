import { sanitizeFileName } from '../../../lib/submission-files';
import { requestSignedUpload, uploadFile } from '../../../lib/upload-file';

/** The picture types the server takes as public assets. */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/**
 * Uploads an assistant's picture as a public asset of the team: signs it with
 * `s3-public-asset-upload`, PUTs the bytes and resolves to the file URL to store as `imageURL`.
 * Rejects with the server's or the storage's refusal.
 */
export async function uploadAssistantImage(file: File, signal?: AbortSignal): Promise<string> {
  const signed = await requestSignedUpload('/api/v1/s3-public-asset-upload', {
    fileName: sanitizeFileName(file.name),
    fileType: file.type,
    fileSize: file.size,
  });
  await uploadFile(signed.signedUrl, file, file.type, { signal });
  return signed.location;
}
