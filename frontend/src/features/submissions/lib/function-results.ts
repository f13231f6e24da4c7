import type { ResultStatus, ResultSummary } from '../api/types';

const RESULT_STATUSES: readonly ResultStatus[] = [
  '',
  'ready-to-grade',
  'grading',
  'rubric-grading',
  'annotating',
  'graded',
  'annotated',
  'failed',
  'reviewed',
];

export { IN_PROGRESS_STATUSES, isInProgress } from '../../../lib/result-status';
import { isInProgress } from '../../../lib/result-status';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function linkedSubmission(fr: Record<string, unknown>): unknown {
  const { submission, submissionId } = fr;
  if (isObject(submission)) return submission._id;
  return submission ?? submissionId;
}

function points(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/**
 * The id of the result that belongs to `submissionId` among an assignment's function results
 * (the spec names the link `submission`; `submissionId` is read too), or null when it has none.
 */
export function resultIdFor(functionResults: readonly unknown[], submissionId: string): string | null {
  for (const fr of functionResults) {
    if (!isObject(fr)) continue;
    if ((linkedSubmission(fr) === submissionId || fr.submissionId === submissionId) && typeof fr._id === 'string') return fr._id;
  }
  return null;
}

/** One function result as the table reads it, or null when it is not one (no id, no submission). */
export function readResultSummary(raw: unknown): ResultSummary | null {
  if (!isObject(raw) || typeof raw._id !== 'string') return null;
  const submissionId = linkedSubmission(raw);
  if (typeof submissionId !== 'string') return null;
  // An unknown status reads as never run: no chip claims work that may not be happening.
  const status = RESULT_STATUSES.includes(raw.status as ResultStatus) ? (raw.status as ResultStatus) : '';
  const flags = Array.isArray(raw.flags) ? raw.flags.filter(isObject) : [];
  return {
    _id: raw._id,
    submissionId,
    status,
    error: typeof raw.error === 'string' ? raw.error : '',
    totalPoints: points(raw.totalPoints),
    maxPoints: points(raw.maxPoints),
    injectionPassages: flags.filter((f) => f.kind === 'injection').map((f) => (typeof f.passage === 'string' ? f.passage : '')),
    outdated: raw.outdated === true,
    outdatedParts: Array.isArray(raw.outdatedParts) ? raw.outdatedParts.filter((p): p is string => typeof p === 'string') : [],
  };
}

/** The function results of an assignment by submission id (a non-list reads as none). */
export function readResultSummaries(functionResults: unknown): Map<string, ResultSummary> {
  const out = new Map<string, ResultSummary>();
  if (!Array.isArray(functionResults)) return out;
  for (const raw of functionResults) {
    const summary = readResultSummary(raw);
    if (summary) out.set(summary.submissionId, summary);
  }
  return out;
}

/** True while the AI works on any of an assignment's function results. */
export function hasResultsInProgress(functionResults: unknown): boolean {
  if (!Array.isArray(functionResults)) return false;
  return functionResults.some((fr) => isObject(fr) && isInProgress(typeof fr.status === 'string' ? fr.status : undefined));
}
