/**
 * Shapes of the grading API (docs/api-grading.md) as the results feature uses them.
 * Ids are UUID strings in `_id` fields; timestamps are RFC 3339.
 */

export type { ResultStatus } from '../../../lib/result-status';
import type { ResultStatus } from '../../../lib/result-status';

/** Something noticed about a submission: today, an attempt to instruct the grader. */
export interface ResultFlag {
  kind: 'injection';
  passage: string;
  source: 'detector' | 'model';
}

/** The grade of one answer node; `points` is computed by Markwell from `criteria`. */
export interface AnswerGrade {
  points: number;
  gradeAdjustment: number;
  feedback: string;
  criteria: boolean[];
}

/** One answer of a grade result, mirroring a question of the assignment. */
export interface AnswerNode {
  answerBoxesCoordinates: { x: number; y: number; width: number; height: number; page?: number } | null;
  answerMedia: string[];
  signedAnswerMedia?: string[];
  subanswers: AnswerNode[];
  grade: AnswerGrade;
}

/** What the run that wrote a result cost. */
export interface ResultUsage {
  model: string;
  calls: number;
  promptTokens: number;
  /** The part of promptTokens the provider served from its prompt cache. */
  cachedPromptTokens?: number;
  completionTokens: number;
  costUsd: number;
}

/** The outcome of an assignment's function on one submission. */
export interface FunctionResult {
  _id: string;
  submission: string;
  status: ResultStatus;
  error: string;
  feedback: string;
  highlightedText: string;
  criteriaLevels: number[];
  criteriaPoints: number[];
  criteriaFeedback: string[];
  overallComments: string;
  isBenchmark: boolean;
  answers: AnswerNode[] | null;
  totalPoints: number | null;
  maxPoints: number | null;
  flags?: ResultFlag[];
  droppedHighlights?: number;
  usage?: ResultUsage;
  /** Graded against an earlier version of the assignment (teacher's reads only); outdatedParts names what changed. */
  outdated?: boolean;
  outdatedParts?: string[];
  gradedAt: string | null;
  reviewedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Figures of one criterion (or overall) in an agreement report. */
export interface AgreementFigures {
  exact: number;
  withinOne: number | null;
  kappa: number | null;
  accuracy: number | null;
  meanPointDiff: number;
}

/** How closely the AI agrees with the teacher's benchmark results (leave-one-out). */
export interface AgreementReport {
  benchmarks: number;
  computedAt: string;
  overall: AgreementFigures;
  criteria: (AgreementFigures & { label: string })[];
  disagreements: { submissionId: string; submissionName: string; label: string; teacher: string; ai: string }[];
}

/** What the class met and missed, from `ai-assist/generate-summary`. */
export interface ClassSummary {
  met: string[];
  missed: string[];
  commonMistakes: string[];
  nextLesson: string;
  generatedAt: string;
}

/** One line of the criteria breakdown the page sends to `ai-assist/generate-summary`. */
export interface CriterionBreakdown {
  label: string;
  successRate: number;
  averagePoints: number;
  maxPoints: number;
}
