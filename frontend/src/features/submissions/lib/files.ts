/** How Markwell reads a kind of file (spec §5): text extraction, a PDF read, or an image read. */
export type Reader = 'textract' | 'pdf' | 'image';

/** A file type teachers may upload as a submission. */
interface AcceptedType {
  extensions: string[];
  mimeType: string;
  reader: Reader;
}

const ACCEPTED: AcceptedType[] = [
  { extensions: ['pdf'], mimeType: 'application/pdf', reader: 'pdf' },
  {
    extensions: ['docx'],
    mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    reader: 'textract',
  },
  {
    extensions: ['pptx'],
    mimeType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    reader: 'textract',
  },
  { extensions: ['txt'], mimeType: 'text/plain', reader: 'textract' },
  { extensions: ['jpg', 'jpeg'], mimeType: 'image/jpeg', reader: 'image' },
  { extensions: ['png'], mimeType: 'image/png', reader: 'image' },
];

/** The file picker's `accept`: the six submission types by extension and media type. */
export const SUBMISSION_ACCEPT = [
  ...ACCEPTED.flatMap((t) => t.extensions.map((ext) => `.${ext}`)),
  ...ACCEPTED.map((t) => t.mimeType),
].join(',');

/** The accepted types in words, for hints and refusals. */
export const ACCEPTED_TYPES_TEXT = 'PDF, Word (.docx), PowerPoint (.pptx), text (.txt), JPEG or PNG';

/** A file's extension in lower case, without the dot ('' when it has none). */
export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(dot + 1).toLowerCase() : '';
}

/**
 * What a file is as a submission: its media type and reader, or null when it is none of the six
 * accepted types. The extension decides (browsers often leave `type` empty for Office files).
 */
export function submissionFileType(file: { name: string }): { mimeType: string; reader: Reader } | null {
  const ext = extensionOf(file.name);
  const type = ACCEPTED.find((t) => t.extensions.includes(ext));
  return type ? { mimeType: type.mimeType, reader: type.reader } : null;
}

/**
 * A file name safe for a storage key (spec §5): only letters, digits, underscore, hyphen, dot and
 * tilde are kept. A name with nothing left before its extension becomes `file.<ext>`.
 */
export function sanitizeFileName(fileName: string): string {
  const safe = fileName.replace(/[^A-Za-z0-9_\-.~]/g, '');
  const ext = extensionOf(fileName).replace(/[^A-Za-z0-9_\-.~]/g, '');
  if (safe === '' || safe === `.${ext}` || /^\.+$/.test(safe)) return ext ? `file.${ext}` : 'file';
  return safe;
}

/** The upload folder of an assignment's submissions (spec §9). */
export function submissionsFolder(assignmentId: string): string {
  return `assignments/${assignmentId}/submissions/`;
}

/** True when the file looks like a CSV by name or media type. */
export function isCsvFile(file: { name: string; type: string }): boolean {
  return extensionOf(file.name) === 'csv' || file.type === 'text/csv';
}
