import { PDF_TYPE, uploadAndReadChatFiles } from '../../../lib/chat-files';
import type { AssistantFile } from '../types';

export { PDF_TYPE };

/**
 * Uploads `files` to chats/ and reads their text (`POST upload-and-read-pdf`), resolving to one
 * attached file per PDF in order. All or nothing: it rejects with "Couldn't read PDF" when any
 * upload fails, the call fails, the server flags a file it could not read, or a PDF holds no text
 * (a scanned or image-only PDF: the server reads no images, so the assistant would get nothing).
 */
export async function readPdfs(files: File[], signal?: AbortSignal): Promise<AssistantFile[]> {
  let texts: string[];
  try {
    texts = await uploadAndReadChatFiles(files, { pdf: true, signal, requireText: true });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new Error("Couldn't read PDF");
  }
  return files.map((file, index) => ({ fileName: file.name, fileText: texts[index], fileType: PDF_TYPE }));
}
