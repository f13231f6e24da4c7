import type { AnswerNode, FunctionResult } from '../api/types';
import { questionLabel } from '../../../lib/question-label';
import type { QuestionInfo } from './definition';

/**
 * The answers tree of a grade result, read and changed without mutating it: the nodes with their
 * questions and labels, totals, and the edits a teacher makes (a criterion toggled, a grade
 * adjustment, feedback).
 */

/** One answer of the tree, with where it sits, its label and the question it answers. */
export interface GradeNode {
  /** Indexes from the root's children down (`[0, 1]` = question 1, part b). */
  path: number[];
  /** "1", "1b", "1b iii". */
  label: string;
  /** The assignment's question at the same place, when it still has one. */
  question: QuestionInfo | undefined;
  answer: AnswerNode;
}

/** The label of a question path, as every screen numbers questions: `[0, 1, 2]` → "1b iii". */
export const answerLabel = questionLabel;

/** A stable string for a path, to key elements and maps. */
export function pathKey(path: readonly number[]): string {
  return path.join('.');
}

/** Every answer of the tree, depth first, beside the assignment's question at its place. */
export function gradeNodes(answers: readonly AnswerNode[] | null, questions: readonly QuestionInfo[] | undefined): GradeNode[] {
  const out: GradeNode[] = [];
  const walk = (nodes: readonly AnswerNode[], qs: readonly QuestionInfo[] | undefined, parent: number[]) => {
    nodes.forEach((answer, index) => {
      const path = [...parent, index];
      const question = qs?.[index];
      out.push({ path, label: answerLabel(path), question, answer });
      walk(answer.subanswers, question?.subquestions, path);
    });
  };
  walk(answers ?? [], questions, []);
  return out;
}

/**
 * The adjustments an answer can take: its score (points + adjustment) stays within 0 and what its
 * question's own criteria are worth, as the server keeps it.
 */
export function adjustmentBounds(points: number, max: number): { min: number; max: number } {
  return { min: -points, max: Math.max(0, max - points) };
}

/** An answer's score: points + adjustment, within 0 and the question's maximum. */
export function answerScore(grade: { points: number; gradeAdjustment: number }, max: number): number {
  return Math.min(Math.max(grade.points + grade.gradeAdjustment, 0), Math.max(max, grade.points));
}

/** What a question's own criteria are worth (negative criteria take points, they add none). */
export function questionMax(question: QuestionInfo | undefined): number {
  return (question?.criteria ?? []).reduce((sum, c) => sum + Math.max(0, c.points), 0);
}

/** A question with no criteria of its own but parts: its parts carry its criteria and adjustments. */
export function isPartsOnly(node: GradeNode): boolean {
  return (node.question?.criteria ?? []).length === 0 && node.answer.subanswers.length > 0;
}

/**
 * A question with its parts, as the assignment page counts its points: the answer's score and
 * its question's worth, plus those of every part below it.
 */
export function withParts(node: GradeNode): { scored: number; max: number } {
  const all = [node, ...gradeNodes(node.answer.subanswers, node.question?.subquestions)];
  return all.reduce(
    (sum, { answer, question }) => {
      const max = questionMax(question);
      return { scored: sum.scored + answerScore(answer.grade, max), max: sum.max + max };
    },
    { scored: 0, max: 0 },
  );
}

/** Σ (points + gradeAdjustment) over every answer of the tree (the root itself is not in it). */
export function answersTotal(answers: readonly AnswerNode[] | null): number {
  return gradeNodes(answers, undefined).reduce((sum, { answer }) => sum + answer.grade.points + answer.grade.gradeAdjustment, 0);
}

/** The tree with the answer at `path` replaced by what `change` makes of it. */
export function updateAnswer(answers: readonly AnswerNode[], path: readonly number[], change: (node: AnswerNode) => AnswerNode): AnswerNode[] {
  const [index, ...rest] = path;
  return answers.map((node, i) => {
    if (i !== index) return node;
    if (rest.length === 0) return change(node);
    return { ...node, subanswers: updateAnswer(node.subanswers, rest, change) };
  });
}

/** The answer at `path`, if the tree has one. */
export function answerAt(answers: readonly AnswerNode[] | null, path: readonly number[]): AnswerNode | undefined {
  let nodes = answers ?? [];
  let node: AnswerNode | undefined;
  for (const index of path) {
    node = nodes[index];
    if (!node) return undefined;
    nodes = node.subanswers;
  }
  return node;
}

/** Adds `change` to the points of the answer at `path` and to the result's total. */
export function addPoints(result: FunctionResult, path: readonly number[], change: number): FunctionResult {
  if (!result.answers || change === 0) return result;
  return {
    ...result,
    answers: updateAnswer(result.answers, path, (node) => ({ ...node, grade: { ...node.grade, points: node.grade.points + change } })),
    totalPoints: result.totalPoints === null ? null : result.totalPoints + change,
  };
}

/**
 * Flips criterion `criterionIndex` of the answer at `path` and adds `pointsChange` to that
 * answer's points and the total: what `gradeFunction/toggleCriterion` does on the server. Doing it
 * twice with opposite changes gives the result back.
 */
export function toggleCriterion(result: FunctionResult, path: readonly number[], criterionIndex: number, pointsChange: number): FunctionResult {
  if (!result.answers) return result;
  const flipped = updateAnswer(result.answers, path, (node) => {
    const criteria = [...node.grade.criteria];
    while (criteria.length <= criterionIndex) criteria.push(false);
    criteria[criterionIndex] = !criteria[criterionIndex];
    return { ...node, grade: { ...node.grade, criteria } };
  });
  return addPoints({ ...result, answers: flipped }, path, pointsChange);
}

/** Sets the grade adjustment and feedback of the answer at `path`, moving the total with the adjustment. */
export function editAnswer(
  result: FunctionResult,
  path: readonly number[],
  edit: { gradeAdjustment?: number; feedback?: string },
): FunctionResult {
  const node = answerAt(result.answers, path);
  if (!result.answers || !node) return result;
  const adjustment = edit.gradeAdjustment ?? node.grade.gradeAdjustment;
  const change = adjustment - node.grade.gradeAdjustment;
  return {
    ...result,
    answers: updateAnswer(result.answers, path, (n) => ({
      ...n,
      grade: { ...n.grade, gradeAdjustment: adjustment, feedback: edit.feedback ?? n.grade.feedback },
    })),
    totalPoints: result.totalPoints === null ? null : result.totalPoints + change,
  };
}

/** The points the assignment gives for every criterion of its questions. */
export function maxPointsOf(questions: readonly QuestionInfo[] | undefined): number {
  return (questions ?? []).reduce(
    (sum, q) => sum + q.criteria.reduce((s, c) => s + Math.max(0, c.points), 0) + maxPointsOf(q.subquestions),
    0,
  );
}

/** A number of points as a teacher reads it: at most two decimals, no trailing zeros. */
export function formatPoints(points: number): string {
  return String(Math.round(points * 100) / 100);
}
