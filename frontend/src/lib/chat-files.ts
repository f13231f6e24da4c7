import { api } from './api-client';
import { sanitizeFileName } from './submission-files';
import { requestSignedUpload, uploadFile } from './upload-file';

/** The upload folder of chat and assistant files (spec §9), for `s3-upload`'s file name. */
export const CHATS_FOLDER = 'chats/';

/** The media type of a PDF. */
export const PDF_TYPE = 'application/pdf';

/** What `upload-and-read-pdf` and `upload-and-read-files` answer: one text per file, in order. */
interface ReadResult {
  textArray?: string[];
  /** True when a file could not be read; `message` then says which. */
  error?: boolean;
  message?: string;
  /** The files read that hold no text (a scanned or image-only PDF), by position. */
  noText?: number[];
  /** The files that could not be read (set with `error`), by position. */
  failures?: { index: number; name?: string; reason?: string }[];
}

/** Rejects a read whose files hold no text when the caller needs text (`requireText`). */
export class NoTextError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NoTextError';
  }
}

/** Uploads a file to the team's chats/ folder (signed `s3-upload`, then a PUT) and resolves to its file URL. */
export async function uploadChatFile(file: File, { signal, fileType = file.type || 'application/octet-stream' }: { signal?: AbortSignal; fileType?: string } = {}): Promise<string> {
  const signed = await requestSignedUpload('/api/v1/s3-upload', {
    fileName: CHATS_FOLDER + sanitizeFileName(file.name),
    fileType,
    fileSize: file.size,
  });
  await uploadFile(signed.signedUrl, file, fileType, { signal });
  return signed.location;
}

/**
 * Uploads `files` to chats/ and has the server read them: PDFs only through `upload-and-read-pdf`
 * (`pdf`), any supported file through `upload-and-read-files`. Resolves to one text per file, in
 * order; all or nothing: it rejects when an upload or the call fails, or the server flags a file
 * it could not read (with the server's message when it gives one). With `requireText`, a file
 * that holds no text (a scanned or image-only PDF) rejects too, with a {@link NoTextError}.
 */
export async function uploadAndReadChatFiles(
  files: File[],
  { pdf = false, signal, requireText = false }: { pdf?: boolean; signal?: AbortSignal; requireText?: boolean } = {},
) {
  const fileType = pdf ? PDF_TYPE : undefined;
  const fileLinks = await Promise.all(files.map((file) => uploadChatFile(file, { signal, fileType })));
  const data = pdf
    ? await api.post<ReadResult | undefined>('/api/v1/upload-and-read-pdf', { fileLinks }, { signal })
    : await api.post<ReadResult | undefined>('/api/v1/upload-and-read-files', { fileLinks, fileNames: files.map((f) => f.name) }, { signal });
  const texts = data?.textArray;
  if (data?.error || !Array.isArray(texts) || texts.length !== files.length) {
    throw new Error(data?.message || 'The files could not be read.');
  }
  const empty = requireText ? (data?.noText ?? []).filter((i) => i >= 0 && i < files.length) : [];
  if (empty.length > 0) {
    throw new NoTextError(`No text could be read from ${empty.map((i) => files[i].name).join(', ')}.`);
  }
  return texts;
}

/** One file of {@link uploadAndReadEachChatFile}: its text, or null when it gave none. */
export interface ChatFileRead {
  file: File;
  text: string | null;
}

/**
 * Uploads `files` to chats/ and has the server read them (`upload-and-read-pdf` with `pdf`), file
 * by file: each file gets its text, or null when its upload failed, the server flagged it as not
 * read (`failures`, or `error` without them: then every file), or it holds no text (`noText`: a
 * scanned or image-only PDF). It rejects only when nothing could be uploaded or the call itself
 * fails (or is aborted), so one unreadable file never costs the others.
 */
export async function uploadAndReadEachChatFile(
  files: File[],
  { pdf = false, signal }: { pdf?: boolean; signal?: AbortSignal } = {},
): Promise<ChatFileRead[]> {
  const fileType = pdf ? PDF_TYPE : undefined;
  const uploads = await Promise.allSettled(files.map((file) => uploadChatFile(file, { signal, fileType })));
  signal?.throwIfAborted();
  const uploaded = files.flatMap((file, index) => {
    const upload = uploads[index];
    if (upload.status === 'fulfilled') return [{ file, index, link: upload.value }];
    console.warn(`Uploading ${file.name} failed`, upload.reason);
    return [];
  });
  if (uploaded.length === 0) throw new Error('The files could not be uploaded.');
  const fileLinks = uploaded.map((u) => u.link);
  const data = pdf
    ? await api.post<ReadResult | undefined>('/api/v1/upload-and-read-pdf', { fileLinks }, { signal })
    : await api.post<ReadResult | undefined>('/api/v1/upload-and-read-files', { fileLinks, fileNames: uploaded.map((u) => u.file.name) }, { signal });
  const texts = data?.textArray;
  if (!Array.isArray(texts) || texts.length !== uploaded.length) {
    throw new Error(data?.message || 'The files could not be read.');
  }
  const failed = new Set<number>();
  const failures = Array.isArray(data?.failures) ? data.failures : [];
  if (data?.error && failures.length === 0) uploaded.forEach((_, i) => failed.add(i));
  failures.forEach((f) => failed.add(f.index));
  (data?.noText ?? []).forEach((i) => failed.add(i));
  const result: ChatFileRead[] = files.map((file) => ({ file, text: null }));
  uploaded.forEach((u, i) => {
    if (!failed.has(i) && typeof texts[i] === 'string') result[u.index].text = texts[i];
  });
  return result;
}
