/** How the server should read a file: text extraction, a PDF read, or an image read. */
export type Reader = 'textract' | 'pdf' | 'image';

interface FileKind {
  mime: string;
  reader: Reader;
}

/** The six kinds of file a student may submit, by extension. */
const KINDS: Record<string, FileKind> = {
  pdf: { mime: 'application/pdf', reader: 'pdf' },
  docx: { mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', reader: 'textract' },
  pptx: { mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', reader: 'textract' },
  txt: { mime: 'text/plain', reader: 'textract' },
  jpg: { mime: 'image/jpeg', reader: 'image' },
  jpeg: { mime: 'image/jpeg', reader: 'image' },
  png: { mime: 'image/png', reader: 'image' },
};

/** The file input's `accept` list: the extensions and their media types. */
export const ACCEPT = [
  ...Object.keys(KINDS).map((ext) => `.${ext}`),
  ...new Set(Object.values(KINDS).map((kind) => kind.mime)),
].join(',');

/** Said when a student picks a file of another kind. */
export const UNSUPPORTED_FILE_MESSAGE =
  "This kind of file can't be submitted. Choose a PDF, Word (.docx), PowerPoint (.pptx), text (.txt), JPEG or PNG file.";

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** The kind of a file, by its extension; undefined for a kind students may not submit. */
export function fileKind(file: Pick<File, 'name'>): FileKind | undefined {
  return KINDS[extensionOf(file.name)];
}

/**
 * A file name the upload accepts: accents dropped, spaces turned into underscores, and only
 * letters, digits, underscore, hyphen, dot and tilde kept (spec §5). Never empty.
 */
export function sanitiseFileName(name: string): string {
  const cleaned = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/\s+/g, '_')
    .replace(/[^A-Za-z0-9_.~-]/g, '');
  const ext = extensionOf(cleaned);
  const stem = ext ? cleaned.slice(0, -(ext.length + 1)) : cleaned;
  if (/^[._~-]*$/.test(stem)) return ext ? `submission.${ext}` : 'submission';
  return cleaned;
}

/** A file size the way people read it: "820 bytes", "14 KB", "2.4 MB". */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const kb = bytes / 1024;
  if (kb < 1024) return `${Math.round(kb)} KB`;
  const mb = kb / 1024;
  return `${mb < 10 ? mb.toFixed(1).replace(/\.0$/, '') : Math.round(mb)} MB`;
}
