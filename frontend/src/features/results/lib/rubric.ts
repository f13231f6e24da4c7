import type { RubricCriterion } from '../../../lib/rubrics';

/**
 * Rubric arithmetic as the API defines it (docs/api-grading.md): levels are listed best first, as
 * the rubric editor shows them; a criterion without ranges scores n − index for n levels (the best
 * n, the last 1), one with ranges scores within the chosen level's [min, max]; the maximum is the
 * best level of each criterion.
 */

/** The points a level of `criterion` allows: [min, max]. */
export function levelRange(criterion: RubricCriterion, level: number): [number, number] {
  if (criterion.useRange) {
    const range = criterion.levelRanges?.find((r) => r.levelDescriptionsIndex === level);
    if (range && range.min !== undefined && range.max !== undefined) {
      return [Math.min(range.min, range.max), Math.max(range.min, range.max)];
    }
  }
  const n = criterion.levelDescriptions.length;
  const points = level >= 0 && level < n ? n - level : 0;
  return [points, points];
}

/** The most points `criterion` can give: its best level's top. */
export function criterionMax(criterion: RubricCriterion): number {
  const levels = Math.max(1, criterion.levelDescriptions.length);
  let best = 0;
  for (let level = 0; level < levels; level += 1) best = Math.max(best, levelRange(criterion, level)[1]);
  return best;
}

/** The most points the rubric can give. */
export function rubricMax(criteria: readonly RubricCriterion[]): number {
  return criteria.reduce((sum, c) => sum + criterionMax(c), 0);
}

/** `points` moved into `[min, max]`. */
export function clamp(points: number, [min, max]: [number, number]): number {
  return Math.min(max, Math.max(min, points));
}

/**
 * The points after a teacher picks `level`: n − level without ranges; with ranges the
 * previous points kept when they fit the new level, else the nearest end of its range.
 */
export function pointsForLevel(criterion: RubricCriterion, level: number, previous: number): number {
  return clamp(previous, levelRange(criterion, level));
}

/** True when `points` is a number the chosen level allows. */
export function pointsFit(criterion: RubricCriterion, level: number, points: number): boolean {
  const [min, max] = levelRange(criterion, level);
  return Number.isFinite(points) && points >= min && points <= max;
}

/** The sum of the points. */
export function total(points: readonly number[]): number {
  return points.reduce((sum, p) => sum + (Number.isFinite(p) ? p : 0), 0);
}

/** A number as a teacher reads points: at most two decimals, no trailing zeros. */
export function formatPoints(points: number): string {
  return String(Math.round(points * 100) / 100);
}
