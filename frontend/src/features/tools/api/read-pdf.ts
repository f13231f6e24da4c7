import { useMutation } from '@tanstack/react-query';
import { uploadAndReadChatFiles } from '../../../lib/chat-files';
import { sanitizeFileName } from '../../../lib/submission-files';

/** Why a PDF gave no text: the server's marker for a scanned or unreadable file, or nothing at all. */
export class PdfReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PdfReadError';
  }
}

/** True for the markers `upload-and-read-pdf` puts in place of a file's text (docs/api-submissions.md). */
function isMarker(text: string, fileName: string): boolean {
  return (
    text === `[No text found in ${fileName}]` ||
    text === `[${fileName} is not a PDF]` ||
    text.startsWith(`[Could not read ${fileName}`)
  );
}

/**
 * Uploads a PDF to the team's chats/ folder and reads its text back (`upload-and-read-pdf`).
 * Rejects when any step fails or the file gave no text.
 */
export async function readPdf(file: File): Promise<string> {
  let text: string;
  try {
    [text] = await uploadAndReadChatFiles([file], { pdf: true });
  } catch (err) {
    throw new PdfReadError(err instanceof Error ? err.message : String(err));
  }
  text = text.trim();
  if (text === '' || isMarker(text, sanitizeFileName(file.name)) || isMarker(text, file.name)) {
    throw new PdfReadError(`No text could be read from ${file.name}`);
  }
  return text;
}

/** Reads the text of a PDF the teacher attached. */
export function useReadPdf() {
  return useMutation({ mutationFn: readPdf });
}
