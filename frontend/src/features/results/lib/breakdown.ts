import { assignmentTypeInfo } from '../../../lib/assignment-type';
import type { AnswerNode, CriterionBreakdown, FunctionResult } from '../api/types';
import type { QuestionInfo, ResultFunction } from './definition';
import { isFinished } from './normalize';
import { clamp, criterionMax, levelRange, total } from './rubric';
import type { RubricCriterion } from '../../../lib/rubrics';
import { questionLabel } from '../../../lib/question-label';

/** How the class did, computed from the finished results of an assignment. */

/**
 * A criterion's question as the summary names it, numbered as on every other screen and in the
 * CSV export: `[0]` → Q1, `[0, 1]` → Q1b, `[0, 0, 3]` → Q1a iv.
 */
export function summaryQuestionLabel(path: readonly number[]): string {
  return `Q${questionLabel(path)}`;
}

function answerAt(answers: readonly AnswerNode[] | null, path: readonly number[]): AnswerNode | undefined {
  let nodes = answers ?? [];
  let node: AnswerNode | undefined;
  for (const i of path) {
    node = nodes[i];
    if (!node) return undefined;
    nodes = node.subanswers;
  }
  return node;
}

function gradeBreakdown(questions: readonly QuestionInfo[], results: readonly FunctionResult[]): CriterionBreakdown[] {
  const rows: CriterionBreakdown[] = [];
  const walk = (qs: readonly QuestionInfo[], prefix: number[]) => {
    qs.forEach((q, i) => {
      const path = [...prefix, i];
      q.criteria.forEach((c, ci) => {
        const met = results.filter((r) => answerAt(r.answers, path)?.grade.criteria[ci] === true).length;
        const n = results.length;
        rows.push({
          label: `${summaryQuestionLabel(path)}: ${c.description || `Criterion ${ci + 1}`}`,
          successRate: n ? met / n : 0,
          averagePoints: n ? (met * c.points) / n : 0,
          maxPoints: c.points,
        });
      });
      walk(q.subquestions ?? [], path);
    });
  };
  walk(questions, []);
  return rows;
}

/**
 * A result's points on rubric criterion `i` as the API counts them in its total: the chosen
 * level decides (n − level without ranges, whatever was stored), with ranges the stored points
 * kept within the level's range; without a valid level, 0.
 */
function criterionPoints(c: RubricCriterion, result: FunctionResult, i: number): number {
  const level = result.criteriaLevels[i];
  if (level === undefined || !Number.isInteger(level) || level < 0 || level >= c.levelDescriptions.length) return 0;
  const range = levelRange(c, level);
  if (range[0] === range[1]) return range[0];
  const stored = result.criteriaPoints[i];
  return stored !== undefined && Number.isFinite(stored) ? clamp(stored, range) : 0;
}

function rubricBreakdown(fn: ResultFunction, results: readonly FunctionResult[]): CriterionBreakdown[] {
  return (fn.rubric?.criteria ?? []).map((c, i) => {
    const max = criterionMax(c);
    const n = results.length;
    const average = n ? total(results.map((r) => criterionPoints(c, r, i))) / n : 0;
    return {
      label: c.criterionDescription || `Criterion ${i + 1}`,
      successRate: max > 0 ? average / max : 0,
      averagePoints: average,
      maxPoints: max,
    };
  });
}

/**
 * Per criterion, how the class did over its finished results: for a grade criterion the share of
 * results that met it, for a rubric criterion the share of its points earned on average.
 * Other assignment types have no criteria: an empty list.
 */
export function criteriaBreakdown(
  type: string,
  fn: ResultFunction | undefined,
  results: readonly FunctionResult[],
): CriterionBreakdown[] {
  if (!fn) return [];
  const finished = results.filter((r) => isFinished(r.status));
  const criteria = assignmentTypeInfo(type)?.criteria;
  if (criteria === 'met') return gradeBreakdown(fn.questions ?? [], finished);
  if (criteria === 'earned') return rubricBreakdown(fn, finished);
  return [];
}

/** One bar of the points distribution. */
export interface PointsBucket {
  label: string;
  count: number;
}

/** The points distribution of the finished results, and their mean. */
export interface PointsDistribution {
  buckets: PointsBucket[];
  /** How many results are counted. */
  results: number;
  mean: number;
  max: number;
  /** 'points': one bar per point (0 … max); 'percent': ten bars of ten per cent. */
  scale: 'points' | 'percent';
}

/** The most bars shown one per point; beyond it the chart counts tenths of the maximum. */
const MAX_POINT_BARS = 20;

/** How the finished, scored results spread over the points. */
export function pointsDistribution(results: readonly FunctionResult[]): PointsDistribution {
  const scored = results.filter(
    (r) => isFinished(r.status) && r.totalPoints !== null && r.maxPoints !== null && r.maxPoints > 0,
  ) as (FunctionResult & { totalPoints: number; maxPoints: number })[];
  const max = Math.max(0, ...scored.map((r) => r.maxPoints));
  const mean = scored.length ? total(scored.map((r) => r.totalPoints)) / scored.length : 0;
  const perPoint = max <= MAX_POINT_BARS && Number.isInteger(max) && scored.every((r) => r.maxPoints === max);
  if (perPoint) {
    const buckets = Array.from({ length: max + 1 }, (_, p) => ({ label: String(p), count: 0 }));
    for (const r of scored) buckets[Math.min(max, Math.max(0, Math.floor(r.totalPoints)))].count += 1;
    return { buckets, results: scored.length, mean, max, scale: 'points' };
  }
  const buckets = Array.from({ length: 10 }, (_, i) => ({ label: i === 9 ? '90–100%' : `${i * 10}–${i * 10 + 9}%`, count: 0 }));
  for (const r of scored) {
    const tenth = Math.floor((Math.max(0, r.totalPoints) / r.maxPoints) * 10);
    buckets[Math.min(9, tenth)].count += 1;
  }
  return { buckets, results: scored.length, mean, max, scale: 'percent' };
}
