import type { AnswerBox } from '../api/types';

/** A point as fractions (0..1) of the page image. */
export interface Point {
  x: number;
  y: number;
}

/** A drag shorter than this (as a fraction of the page) in either direction is a click, not a box. */
export const MIN_BOX_FRACTION = 0.01;

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

/** Rounds a fraction to 4 decimals (a hundredth of a percent). */
export function roundFraction(v: number): number {
  return Math.round(v * 10_000) / 10_000;
}

/**
 * Where a pointer at (clientX, clientY) falls on an element, as fractions of its displayed size,
 * clamped to the element; null when the element has no size yet (its image has not loaded).
 * The image scales evenly, so these are also fractions of its natural size.
 */
export function pointInRect(clientX: number, clientY: number, rect: DOMRect): Point | null {
  if (rect.width <= 0 || rect.height <= 0) return null;
  return { x: clamp01((clientX - rect.left) / rect.width), y: clamp01((clientY - rect.top) / rect.height) };
}

/** The rectangle spanned by two points, whichever way the drag went. */
export function rectBetween(a: Point, b: Point): Pick<AnswerBox, 'x' | 'y' | 'width' | 'height'> {
  return {
    x: roundFraction(Math.min(a.x, b.x)),
    y: roundFraction(Math.min(a.y, b.y)),
    width: roundFraction(Math.abs(a.x - b.x)),
    height: roundFraction(Math.abs(a.y - b.y)),
  };
}

/** True when a rectangle is big enough to be a box rather than a stray click. */
export function isBigEnough(rect: Pick<AnswerBox, 'width' | 'height'>): boolean {
  return rect.width >= MIN_BOX_FRACTION && rect.height >= MIN_BOX_FRACTION;
}

/** A fraction as a percent for display, to at most one decimal: 0.1234 → "12.3". */
export function toPercent(v: number): string {
  return String(Math.round(v * 1000) / 10);
}
