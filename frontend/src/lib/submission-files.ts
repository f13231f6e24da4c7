/**
 * The files a submission may be made of (spec §5), shared by the teacher's upload and the
 * student's submission link: the accepted kinds, how the server reads each, the picker's
 * `accept` list and a storage-safe file name.
 */

/** How Markwell reads a kind of file: text extraction, a PDF read, or an image read. */
export type Reader = 'textract' | 'pdf' | 'image';

/** What a file is as a submission: its media type and the reader the server uses. */
export interface SubmissionFileType {
  mimeType: string;
  reader: Reader;
}

/** The accepted kinds by extension (lower case, no dot). */
const ACCEPTED = new Map<string, SubmissionFileType>([
  ['pdf', { mimeType: 'application/pdf', reader: 'pdf' }],
  ['docx', { mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', reader: 'textract' }],
  ['pptx', { mimeType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', reader: 'textract' }],
  ['txt', { mimeType: 'text/plain', reader: 'textract' }],
  ['jpg', { mimeType: 'image/jpeg', reader: 'image' }],
  ['jpeg', { mimeType: 'image/jpeg', reader: 'image' }],
  ['png', { mimeType: 'image/png', reader: 'image' }],
  // Phones and scanners: an iPhone's photos, a school scanner's multi-page TIFF, web images.
  ['heic', { mimeType: 'image/heic', reader: 'image' }],
  ['heif', { mimeType: 'image/heif', reader: 'image' }],
  ['tif', { mimeType: 'image/tiff', reader: 'image' }],
  ['tiff', { mimeType: 'image/tiff', reader: 'image' }],
  ['webp', { mimeType: 'image/webp', reader: 'image' }],
  ['gif', { mimeType: 'image/gif', reader: 'image' }],
  // OpenDocument, RTF and Office 97–2003: the server converts them with LibreOffice.
  ['odt', { mimeType: 'application/vnd.oasis.opendocument.text', reader: 'textract' }],
  ['odp', { mimeType: 'application/vnd.oasis.opendocument.presentation', reader: 'textract' }],
  ['rtf', { mimeType: 'application/rtf', reader: 'textract' }],
  ['doc', { mimeType: 'application/msword', reader: 'textract' }],
  ['ppt', { mimeType: 'application/vnd.ms-powerpoint', reader: 'textract' }],
]);

/** A file input's `accept`: the accepted extensions and their media types. */
export const SUBMISSION_ACCEPT = [
  ...[...ACCEPTED.keys()].map((ext) => `.${ext}`),
  ...new Set([...ACCEPTED.values()].map((type) => type.mimeType)),
].join(',');

/** The accepted kinds in words, for hints and refusals. */
export const ACCEPTED_TYPES_TEXT =
  'PDF, Word (.docx, .doc), PowerPoint (.pptx, .ppt), OpenDocument (.odt, .odp), RTF, text (.txt) or image (JPEG, PNG, HEIC, TIFF, WebP, GIF)';

/** A file's extension in lower case, without the dot ('' when it has none, as in `.profile`). */
function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(dot + 1).toLowerCase() : '';
}

/**
 * What a file is as a submission, or null when it is none of the accepted kinds. The extension
 * decides, whatever its case: browsers often leave `type` empty for Office files.
 */
export function submissionFileType(file: { name: string }): SubmissionFileType | null {
  return ACCEPTED.get(extensionOf(file.name)) ?? null;
}

/**
 * The `requires…Array` flags of the calls that record uploaded files (`update-submissions`, the
 * student's `update-submissions-from-student`): for each file, in order, the reader it needs.
 */
export interface ReaderFlags {
  requiresTextractArray: boolean[];
  requiresPDFReadArray: boolean[];
  requiresImageReadArray: boolean[];
}

/** The {@link ReaderFlags} of files read by `readers`, in that order. */
export function readerFlags(readers: Reader[]): ReaderFlags {
  return {
    requiresTextractArray: readers.map((reader) => reader === 'textract'),
    requiresPDFReadArray: readers.map((reader) => reader === 'pdf'),
    requiresImageReadArray: readers.map((reader) => reader === 'image'),
  };
}

/** True when the file looks like a CSV by name or media type. */
export function isCsvFile(file: { name: string; type: string }): boolean {
  return extensionOf(file.name) === 'csv' || file.type === 'text/csv';
}

const UNSAFE_NAME_CHARS = /[^A-Za-z0-9_.~-]/g;

/**
 * A file name safe for a storage key (spec §5): only letters, digits, underscore, hyphen, dot and
 * tilde are kept, the same rule the server applies. A name with no letter or digit left before
 * its extension becomes `file.<ext>` (or `file`).
 */
export function sanitizeFileName(fileName: string): string {
  const safe = fileName.replace(UNSAFE_NAME_CHARS, '');
  const dot = safe.lastIndexOf('.');
  const stem = dot < 0 ? safe : safe.slice(0, dot);
  if (/[A-Za-z0-9]/.test(stem)) return safe;
  const ext = dot < 0 ? '' : safe.slice(dot + 1).toLowerCase();
  return ext ? `file.${ext}` : 'file';
}

/** The longest submission name the server takes, in characters (`input.MaxName`). */
export const MAX_SUBMISSION_NAME = 200;

/** How many characters of the end of a long name's stem are kept ("…final_v2.txt"). */
const KEPT_TAIL = 16;

/**
 * A file's name as a submission's name: at most {@link MAX_SUBMISSION_NAME} characters (code
 * points, as the server counts them), so a long name never fails the submission after its upload.
 * A longer name keeps its start, the last few characters of its stem and its extension, with "…"
 * in place of the middle: `My_photosynthesis_homework_…_really_final_v2.txt`. Used for the
 * teacher's uploads and the student's link alike.
 */
export function submissionName(fileName: string, max = MAX_SUBMISSION_NAME): string {
  const chars = Array.from(fileName);
  if (chars.length <= max) return fileName;
  const dot = fileName.lastIndexOf('.');
  // An extension is kept when it looks like one: short, after a stem.
  let ext = dot > 0 ? Array.from(fileName.slice(dot)) : [];
  if (ext.length > 16) ext = [];
  const stem = chars.slice(0, chars.length - ext.length);
  const room = max - ext.length - 1;
  const tail = Math.min(KEPT_TAIL, Math.floor(room / 3));
  return [...stem.slice(0, room - tail), '…', ...stem.slice(stem.length - tail), ...ext].join('');
}

/** The upload folder of an assignment's submissions (spec §9), for `s3-upload`'s file name. */
export function submissionsFolder(assignmentId: string): string {
  return `assignments/${assignmentId}/submissions/`;
}

/** A file size the way people read it: "820 bytes", "14 KB", "2.4 MB". */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const kb = bytes / 1024;
  if (kb < 1024) return `${Math.round(kb)} KB`;
  const mb = kb / 1024;
  return `${mb < 10 ? mb.toFixed(1).replace(/\.0$/, '') : Math.round(mb)} MB`;
}
