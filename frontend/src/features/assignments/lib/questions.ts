import type { Criterion, Question } from '../api/types';
import { questionLabel } from '../../../lib/question-label';

/** Questions nest at most this many levels: question → subquestion → sub-subquestion (spec §9). */
export const MAX_QUESTION_DEPTH = 3;

/** Points a criterion may carry, inclusive (the API refuses others). */
export const MAX_CRITERION_POINTS = 1000;

/** A criterion being edited; points stay text until saved so the field can be cleared. */
export interface CriterionDraft {
  id: string;
  /** The saved criterion's id, when editing a saved definition. */
  serverId?: string;
  description: string;
  points: string;
}

/** A question being edited, with an id for React keys. */
export interface QuestionDraft {
  id: string;
  /** The saved question's id, when editing a saved definition. */
  serverId?: string;
  questionText: string;
  context: string;
  rubricId: string | null;
  criteria: CriterionDraft[];
  subquestions: QuestionDraft[];
}

/** Where a question sits in the tree: its index at each level, e.g. [0, 1] is question 1b. */
export type QuestionPath = readonly number[];

let sequence = 0;
function nextId(prefix: string): string {
  sequence += 1;
  return `${prefix}${sequence}`;
}

/** A new criterion: an empty description and 1 point (spec §3). */
export function newCriterion(description = '', points = 1): CriterionDraft {
  return { id: nextId('c'), description, points: String(points) };
}

/** A new, empty question. */
export function newQuestion(questionText = ''): QuestionDraft {
  return { id: nextId('q'), questionText, context: '', rubricId: null, criteria: [], subquestions: [] };
}

/** A question's number as teachers read it, the same on every screen: [0, 1, 2] → "1b iii". */
export function questionNumber(path: QuestionPath): string {
  return questionLabel(path);
}

/** Parses a points field: a number from 0 to 1000, or null when it is not one. */
export function parsePoints(text: string): number | null {
  if (text.trim() === '') return null;
  const value = Number(text);
  return Number.isFinite(value) && value >= 0 && value <= MAX_CRITERION_POINTS ? value : null;
}

/** The points of a question's own criteria (not its subquestions'); unreadable points count 0. */
export function ownPoints(question: QuestionDraft): number {
  return question.criteria.reduce((sum, c) => sum + (parsePoints(c.points) ?? 0), 0);
}

/** The points of a question and everything under it. */
export function questionPoints(question: QuestionDraft): number {
  return ownPoints(question) + question.subquestions.reduce((sum, q) => sum + questionPoints(q), 0);
}

/** The points of every criterion in the tree. */
export function totalPoints(questions: QuestionDraft[]): number {
  return questions.reduce((sum, q) => sum + questionPoints(q), 0);
}

/** The points of every criterion in a saved question tree. */
export function savedTotalPoints(questions: Question[]): number {
  return questions.reduce(
    (sum, q) => sum + q.criteria.reduce((s, c) => s + (Number(c.points) || 0), 0) + savedTotalPoints(q.subquestions ?? []),
    0,
  );
}

/** Returns a copy of the tree with the question at `path` replaced by `update(question)`. */
export function updateAt(
  questions: QuestionDraft[],
  path: QuestionPath,
  update: (question: QuestionDraft) => QuestionDraft,
): QuestionDraft[] {
  const [index, ...rest] = path;
  return questions.map((q, i) => {
    if (i !== index) return q;
    return rest.length === 0 ? update(q) : { ...q, subquestions: updateAt(q.subquestions, rest, update) };
  });
}

/** Applies `change` to the sibling list that holds the question at `path`. */
function updateSiblings(
  questions: QuestionDraft[],
  path: QuestionPath,
  change: (siblings: QuestionDraft[], index: number) => QuestionDraft[],
): QuestionDraft[] {
  const parentPath = path.slice(0, -1);
  const index = path[path.length - 1];
  if (parentPath.length === 0) return change(questions, index);
  return updateAt(questions, parentPath, (parent) => ({ ...parent, subquestions: change(parent.subquestions, index) }));
}

/** Returns a copy of the tree without the question at `path`. */
export function removeAt(questions: QuestionDraft[], path: QuestionPath): QuestionDraft[] {
  return updateSiblings(questions, path, (siblings, index) => siblings.filter((_, i) => i !== index));
}

/** Returns a copy of the tree with the question at `path` moved `delta` places among its siblings. */
export function moveAt(questions: QuestionDraft[], path: QuestionPath, delta: number): QuestionDraft[] {
  return updateSiblings(questions, path, (siblings, index) => {
    const target = index + delta;
    if (target < 0 || target >= siblings.length) return siblings;
    const next = [...siblings];
    const [moved] = next.splice(index, 1);
    next.splice(target, 0, moved);
    return next;
  });
}

/** True when a question at `path` may get subquestions (it sits above the deepest level). */
export function canNest(path: QuestionPath): boolean {
  return path.length < MAX_QUESTION_DEPTH;
}

/**
 * Returns a copy of the tree with `subquestion` (a new empty one by default) added under the
 * question at `path`; at the deepest level the tree is returned unchanged.
 */
export function addSubquestion(
  questions: QuestionDraft[],
  path: QuestionPath,
  subquestion: QuestionDraft = newQuestion(),
): QuestionDraft[] {
  if (!canNest(path)) return questions;
  return updateAt(questions, path, (q) => ({ ...q, subquestions: [...q.subquestions, subquestion] }));
}

/** True when nothing has been typed into a question or anything under it. */
export function isBlankQuestion(question: QuestionDraft): boolean {
  return (
    question.questionText.trim() === '' &&
    question.context.trim() === '' &&
    question.rubricId === null &&
    question.criteria.every((c) => c.description.trim() === '') &&
    question.subquestions.every(isBlankQuestion)
  );
}

/**
 * The first problem that stops the tree from being saved, in words a teacher can act on, or
 * null when it is ready.
 */
export function questionsProblem(questions: QuestionDraft[]): string | null {
  if (questions.length === 0) return 'Add at least one question to continue.';
  const visit = (list: QuestionDraft[], parent: number[]): string | null => {
    for (const [i, q] of list.entries()) {
      const path = [...parent, i];
      const label = `Question ${questionNumber(path)}`;
      if (q.questionText.trim() === '') return `${label} needs question text.`;
      for (const [j, c] of q.criteria.entries()) {
        if (c.description.trim() === '') return `${label}: describe criterion ${j + 1} or remove it.`;
        if (parsePoints(c.points) === null) {
          return `${label}: criterion ${j + 1} needs points from 0 to ${MAX_CRITERION_POINTS}.`;
        }
      }
      const nested = visit(q.subquestions, path);
      if (nested) return nested;
    }
    return null;
  };
  return visit(questions, []) ?? (hasCriterion(questions) ? null : 'Add at least one criterion to a question to continue.');
}

/**
 * True when some question at any level has a criterion: grading refuses a tree without one
 * ("This assignment's questions have no criteria to grade against yet.", internal/grading).
 */
export function hasCriterion(questions: QuestionDraft[]): boolean {
  return questions.some((q) => q.criteria.length > 0 || hasCriterion(q.subquestions));
}

/** Criteria from the API (or the AI) as editable drafts. */
export function criterionDrafts(criteria: Criterion[]): CriterionDraft[] {
  return criteria.map((c) => newCriterion(c.description ?? '', Number.isFinite(Number(c.points)) ? Number(c.points) : 1));
}

/** A saved question tree as editable drafts that keep the saved ids (editing after creation). */
export function questionDrafts(questions: Question[]): QuestionDraft[] {
  return questions.map((q) => ({
    ...newQuestion(q.questionText ?? ''),
    ...(q.id ? { serverId: q.id } : {}),
    context: q.context ?? '',
    rubricId: q.rubricId ?? null,
    criteria: (q.criteria ?? []).map((c) => ({
      ...newCriterion(c.description ?? '', Number.isFinite(Number(c.points)) ? Number(c.points) : 1),
      ...(c.id ? { serverId: c.id } : {}),
    })),
    subquestions: questionDrafts(q.subquestions ?? []),
  }));
}

/** The tree as the API takes it (drafts must have passed {@link questionsProblem}). */
export function toApiQuestions(questions: QuestionDraft[]): Question[] {
  return questions.map((q) => ({
    ...(q.serverId ? { id: q.serverId } : {}),
    questionText: q.questionText.trim(),
    context: q.context.trim(),
    rubricId: q.rubricId,
    criteria: q.criteria.map((c) => ({
      ...(c.serverId ? { id: c.serverId } : {}),
      description: c.description.trim(),
      points: parsePoints(c.points) ?? 0,
    })),
    subquestions: toApiQuestions(q.subquestions),
  }));
}

/** Returns a copy of the tree with the question whose id is `id` replaced by `update(question)`. */
export function updateById(
  questions: QuestionDraft[],
  id: string,
  update: (question: QuestionDraft) => QuestionDraft,
): QuestionDraft[] {
  return questions.map((q) =>
    q.id === id ? update(q) : { ...q, subquestions: updateById(q.subquestions, id, update) },
  );
}

/** The number of questions in the tree, subquestions included. */
export function countQuestions(questions: { subquestions: unknown[] }[]): number {
  return questions.reduce((sum, q) => sum + 1 + countQuestions(q.subquestions as { subquestions: unknown[] }[]), 0);
}

/** How many questions in words, counting the top level: "3", or "3, with 1 subquestion". */
export function questionsCount(questions: { subquestions: unknown[] }[]): string {
  const sub = countQuestions(questions) - questions.length;
  return sub === 0 ? String(questions.length) : `${questions.length}, with ${sub} ${sub === 1 ? 'subquestion' : 'subquestions'}`;
}
