import { postForFile } from '../../../lib/download';

export { saveBlob } from '../../../lib/download';

/** The Word file's name (spec: Word export file name). */
export const DOCX_FILE_NAME = 'downloaded.docx';

/**
 * Turns markdown into a Word document (`POST /api/v1/chat/download-docx`) and resolves to its
 * bytes. The answer is the file itself, not JSON, so this reads it as a blob; a refusal rejects
 * with an ApiError carrying the server's message (e.g. 'Fetch image was failed: …').
 */
export async function downloadDocx(markdown: string): Promise<Blob> {
  return (await postForFile('/api/v1/chat/download-docx', { markdown }, DOCX_FILE_NAME)).blob;
}
