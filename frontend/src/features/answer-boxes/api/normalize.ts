import type { AnswerBox } from './types';

function fraction(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}

/** Turns the server's boxes into well-formed ones, dropping any without a question path. */
export function normalizeBoxes(boxes: unknown): AnswerBox[] {
  if (!Array.isArray(boxes)) return [];
  return boxes.flatMap((raw): AnswerBox[] => {
    const box = raw as Partial<AnswerBox> | null;
    if (!box || !Array.isArray(box.path) || box.path.length === 0) return [];
    return [
      {
        path: box.path.filter((i) => Number.isInteger(i)),
        page: Number.isInteger(box.page) && (box.page as number) >= 0 ? (box.page as number) : 0,
        x: fraction(box.x),
        y: fraction(box.y),
        width: fraction(box.width),
        height: fraction(box.height),
      },
    ];
  });
}
