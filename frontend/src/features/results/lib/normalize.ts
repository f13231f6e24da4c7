import {
  type AgreementReport,
  type AnswerNode,
  type ClassSummary,
  type FunctionResult,
  type ResultStatus,
} from '../api/types';

/**
 * Reading the grading API's answers defensively: lists the server sends as null become empty,
 * missing fields get their zero value, so the screens never crash on a partial result.
 */

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function numOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function numbers(value: unknown): number[] {
  return Array.isArray(value) ? value.map((v) => (typeof v === 'number' && Number.isFinite(v) ? v : 0)) : [];
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.map(str) : [];
}

function answerNode(value: unknown): AnswerNode {
  const node = isObject(value) ? value : {};
  const grade = isObject(node.grade) ? node.grade : {};
  return {
    answerBoxesCoordinates: isObject(node.answerBoxesCoordinates)
      ? (node.answerBoxesCoordinates as unknown as AnswerNode['answerBoxesCoordinates'])
      : null,
    answerMedia: strings(node.answerMedia),
    ...(Array.isArray(node.signedAnswerMedia) ? { signedAnswerMedia: strings(node.signedAnswerMedia) } : {}),
    subanswers: Array.isArray(node.subanswers) ? node.subanswers.map(answerNode) : [],
    grade: {
      points: numOrNull(grade.points) ?? 0,
      gradeAdjustment: numOrNull(grade.gradeAdjustment) ?? 0,
      feedback: str(grade.feedback),
      criteria: Array.isArray(grade.criteria) ? grade.criteria.map((c) => c === true) : [],
    },
  };
}

/** The id of the submission a result belongs to (`submission` may be an id or `{_id}`). */
function submissionId(fr: Record<string, unknown>): string {
  const s = fr.submission;
  if (isObject(s)) return str(s._id);
  return str(s) || str(fr.submissionId);
}

/** A function result as the server sent it, with every field present. */
export function normalizeFunctionResult(raw: unknown): FunctionResult {
  const fr = isObject(raw) ? raw : {};
  return {
    _id: str(fr._id),
    submission: submissionId(fr),
    status: str(fr.status) as ResultStatus,
    error: str(fr.error),
    feedback: str(fr.feedback),
    highlightedText: str(fr.highlightedText),
    criteriaLevels: numbers(fr.criteriaLevels),
    criteriaPoints: numbers(fr.criteriaPoints),
    criteriaFeedback: strings(fr.criteriaFeedback),
    overallComments: str(fr.overallComments),
    isBenchmark: fr.isBenchmark === true,
    answers: Array.isArray(fr.answers) ? fr.answers.map(answerNode) : null,
    totalPoints: numOrNull(fr.totalPoints),
    maxPoints: numOrNull(fr.maxPoints),
    ...(Array.isArray(fr.flags) ? { flags: fr.flags as FunctionResult['flags'] } : {}),
    ...(typeof fr.droppedHighlights === 'number' ? { droppedHighlights: fr.droppedHighlights } : {}),
    ...(isObject(fr.usage) ? { usage: fr.usage as unknown as FunctionResult['usage'] } : {}),
    ...(fr.outdated === true ? { outdated: true, outdatedParts: strings(fr.outdatedParts) } : {}),
    gradedAt: str(fr.gradedAt) || null,
    reviewedAt: str(fr.reviewedAt) || null,
    createdAt: str(fr.createdAt),
    updatedAt: str(fr.updatedAt),
  };
}

/** An assignment's results as `db/assignment/get` sent them. */
export function normalizeFunctionResults(raw: unknown): FunctionResult[] {
  return Array.isArray(raw) ? raw.filter(isObject).map(normalizeFunctionResult) : [];
}

export { isInProgress } from '../../../lib/result-status';

/** True when the result holds the AI's (or the teacher's) finished work. */
export function isFinished(status: string): boolean {
  return status === 'graded' || status === 'annotated' || status === 'reviewed';
}

/** Where an assignment's agreement check or class summary stands. */
export type JobStatus = '' | 'running' | 'done' | 'failed';

/** The grading fields `db/assignment/get` adds to an assignment (docs/api-grading.md). */
export interface AssignmentGrading {
  agreement: AgreementReport | null;
  agreementStatus: JobStatus;
  classSummary: ClassSummary | null;
  summaryStatus: JobStatus;
}

function jobStatus(value: unknown): JobStatus {
  return value === 'running' || value === 'done' || value === 'failed' ? value : '';
}

function classSummary(value: unknown): ClassSummary | null {
  if (!isObject(value)) return null;
  return {
    met: strings(value.met),
    missed: strings(value.missed),
    commonMistakes: strings(value.commonMistakes),
    nextLesson: str(value.nextLesson),
    generatedAt: str(value.generatedAt),
  };
}

function agreement(value: unknown): AgreementReport | null {
  if (!isObject(value) || !isObject(value.overall)) return null;
  const figures = (f: Record<string, unknown>) => ({
    exact: numOrNull(f.exact) ?? 0,
    withinOne: numOrNull(f.withinOne),
    kappa: numOrNull(f.kappa),
    accuracy: numOrNull(f.accuracy),
    meanPointDiff: numOrNull(f.meanPointDiff) ?? 0,
  });
  return {
    benchmarks: numOrNull(value.benchmarks) ?? 0,
    computedAt: str(value.computedAt),
    overall: figures(value.overall),
    criteria: (Array.isArray(value.criteria) ? value.criteria.filter(isObject) : []).map((c) => ({
      label: str(c.label),
      ...figures(c),
    })),
    disagreements: (Array.isArray(value.disagreements) ? value.disagreements.filter(isObject) : []).map((d) => ({
      submissionId: str(d.submissionId),
      submissionName: str(d.submissionName),
      label: str(d.label),
      teacher: str(d.teacher),
      ai: str(d.ai),
    })),
  };
}

/** The agreement report and class summary of an assignment as `db/assignment/get` sent it. */
export function readAssignmentGrading(assignment: unknown): AssignmentGrading {
  const a = isObject(assignment) ? assignment : {};
  return {
    agreement: agreement(a.agreement),
    agreementStatus: jobStatus(a.agreementStatus),
    classSummary: classSummary(a.classSummary),
    summaryStatus: jobStatus(a.summaryStatus),
  };
}

/** How often the assignment page asks again while an agreement check or summary runs. */
export const GRADING_POLL_MS = 2000;

/** A `refetchInterval` for the assignment page: every 2 s while its agreement check or summary runs. */
export function assignmentGradingRefetchInterval(assignment: unknown): number | false {
  const { agreementStatus, summaryStatus } = readAssignmentGrading(assignment);
  return agreementStatus === 'running' || summaryStatus === 'running' ? GRADING_POLL_MS : false;
}
