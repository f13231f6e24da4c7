import { PDF_TYPE, uploadAndReadEachChatFile } from '../../../lib/chat-files';
import type { AssistantFile } from '../types';

export { PDF_TYPE };

/** What {@link readPdfs} read: the files to attach, and the names of the PDFs left out. */
export interface ReadPdfs {
  added: AssistantFile[];
  /** The PDFs that gave no text, in order: not uploaded, flagged by the server, or scanned images only. */
  unreadable: string[];
}

/**
 * Uploads `files` to chats/ and reads their text (`POST upload-and-read-pdf`), file by file: every
 * PDF with text is attached (in order), and a PDF the server could not read or that holds no text
 * (a scanned or image-only PDF: the server reads no images, so the assistant would get nothing) is
 * left out and named. It rejects with "Couldn't read PDF" only when the call itself fails.
 */
export async function readPdfs(files: File[], signal?: AbortSignal): Promise<ReadPdfs> {
  try {
    const read = await uploadAndReadEachChatFile(files, { pdf: true, signal });
    return {
      added: read.flatMap(({ file, text }) => (text === null ? [] : [{ fileName: file.name, fileText: text, fileType: PDF_TYPE }])),
      unreadable: read.filter(({ text }) => text === null).map(({ file }) => file.name),
    };
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    if (signal?.aborted) throw err;
    throw new Error("Couldn't read PDF");
  }
}
