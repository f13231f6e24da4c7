import { normalizePageQuality } from '../../../lib/page-source';
import type { Submission, SubmissionPage, SubmissionStatus, SubmissionWithText } from './types';

const STATUSES: readonly SubmissionStatus[] = ['queued', 'extracting', 'ready', 'failed'];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * A submission with every field present and of its type, whatever the server left out (an older
 * server lists bare `{_id}` refs; unknown statuses read as queued so polling keeps going).
 */
export function normalizeSubmission(raw: unknown): Submission | null {
  if (!isObject(raw) || typeof raw._id !== 'string') return null;
  const status = STATUSES.includes(raw.status as SubmissionStatus) ? (raw.status as SubmissionStatus) : 'queued';
  return {
    _id: raw._id,
    assignmentId: text(raw.assignmentId),
    name: text(raw.name),
    location: text(raw.location),
    studentName: text(raw.studentName),
    studentEmail: text(raw.studentEmail),
    submissionRole: raw.submissionRole === 'student' ? 'student' : 'teacher',
    source: (['upload', 'csv', 'student', 'google'] as const).find((s) => s === raw.source) ?? 'upload',
    status,
    error: text(raw.error),
    doubtfulPages: Array.isArray(raw.doubtfulPages) ? raw.doubtfulPages.filter((n): n is number => Number.isInteger(n) && n > 0) : [],
    preview: text(raw.preview),
    pageCount: typeof raw.pageCount === 'number' && Number.isFinite(raw.pageCount) ? raw.pageCount : 0,
    isHandWritten: raw.isHandWritten === true,
    attempt: typeof raw.attempt === 'number' && Number.isInteger(raw.attempt) && raw.attempt > 0 ? raw.attempt : 1,
    previousSubmissionId: typeof raw.previousSubmissionId === 'string' && raw.previousSubmissionId ? raw.previousSubmissionId : null,
    contentHash: text(raw.contentHash),
    createdAt: text(raw.createdAt),
    updatedAt: text(raw.updatedAt),
  };
}

/** Every well-formed submission of a list the server sent (null or a non-list reads as none). */
export function normalizeSubmissions(raw: unknown): Submission[] {
  if (!Array.isArray(raw)) return [];
  return raw.map(normalizeSubmission).filter((s): s is Submission => s !== null);
}

/** A submission with its full text and pages. */
export function normalizeSubmissionWithText(raw: unknown): SubmissionWithText | null {
  const base = normalizeSubmission(raw);
  if (!base || !isObject(raw)) return null;
  const pages: SubmissionPage[] = Array.isArray(raw.pages)
    ? raw.pages.filter(isObject).map((p) => ({ ...normalizePageQuality(p), text: text(p.text) }))
    : [];
  return { ...base, text: text(raw.text), pages };
}
