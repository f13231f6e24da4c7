import { uploadAndReadChatFiles } from '../../../lib/chat-files';

/** What the file picker accepts: PDFs, Word and PowerPoint files, plain text and images. */
export const ACCEPTED_FILES = '.pdf,.docx,.pptx,.txt,image/*';

/**
 * Uploads each file to chats/, then has the server read their text (`POST
 * /api/v1/upload-and-read-files`). Rejects when an upload or the read fails, or when the server
 * could not read a file.
 */
export function uploadAndReadFiles(files: File[]): Promise<string[]> {
  return uploadAndReadChatFiles(files);
}
