/**
 * Shapes of the authoring API as the assignments feature uses them (docs/api-authoring.md).
 * Ids are UUID strings in `_id` fields; timestamps are RFC 3339.
 */

import type { AssignmentType } from '../../../lib/assignment-type';

/** The kinds of assignment: the one list in lib/assignment-type. */
export type { AssignmentType };

/** An assignment as `db/assignment/get` returns it. */
export interface Assignment {
  _id: string;
  name: string;
  type: AssignmentType;
  isHandWritten: boolean;
  provideInstantFeedback: boolean;
  folderId?: string | null;
  classSummary?: unknown;
  submissions: { _id: string }[];
  createdAt?: string;
  updatedAt?: string;
  /** What the AI has cost this assignment, summed over its results (assignment/get only). */
  usage?: AssignmentUsage;
}

/** Model calls, tokens and cost in US dollars (from LLM_PRICES; 0 when no price is set). */
export interface AssignmentUsage {
  calls: number;
  promptTokens: number;
  /** The part of promptTokens the provider served from its prompt cache (at the cheaper cached-input price). */
  cachedPromptTokens?: number;
  completionTokens: number;
  costUsd: number;
}

/** What `db/assignment/put` takes. */
export interface AssignmentInput {
  name: string;
  type: AssignmentType;
  isHandWritten: boolean;
  provideInstantFeedback: boolean;
}

/** A highlighter of a feedback assignment; `color` is `<hue>-<shade>`, e.g. purple-500. */
export interface Highlighter {
  key: string;
  color: string;
  title: string;
  description: string;
}

/** A grading criterion of a question. */
export interface Criterion {
  /** Stable across edits: a result's tick follows it (absent before the definition is saved). */
  id?: string;
  description: string;
  points: number;
}

/** A grade question; subquestions nest at most 3 levels in all. */
export interface Question {
  /** Stable across edits: a result's answer follows it when the question moves. */
  id?: string;
  questionText: string;
  context: string;
  rubricId: string | null;
  criteria: Criterion[];
  subquestions: Question[];
}

export type { LevelRange, Rubric, RubricCriterion } from '../../../lib/rubrics';
import type { Rubric } from '../../../lib/rubrics';

/** An assignment's definition ("function" in the spec); which fields matter depends on `type`. */
export interface AssignmentFunction {
  _id: string;
  assignmentId: string;
  type: AssignmentType;
  highlights?: Highlighter[];
  context?: string;
  questions?: Question[];
  rubricId?: string | null;
  rubric?: Rubric;
  prompt?: string;
}

/** The type-specific part of a definition, as `db/function/put` takes it (without the id). */
export type DefinitionInput =
  | { highlights: Highlighter[]; context: string }
  | { questions: Question[] }
  | { rubricId: string }
  | { prompt: string };
