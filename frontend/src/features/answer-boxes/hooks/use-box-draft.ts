import { useCallback, useMemo, useState } from 'react';
import type { AnswerBox } from '../api/types';
import { pathKey, type BoxQuestion } from '../lib/questions';

/** The rectangle part of a box. */
export type BoxRect = Pick<AnswerBox, 'x' | 'y' | 'width' | 'height'>;

function byPath(boxes: readonly AnswerBox[]): Record<string, AnswerBox> {
  return Object.fromEntries(boxes.map((box) => [pathKey(box.path), box]));
}

function ordered(boxes: Record<string, AnswerBox>, questions: readonly BoxQuestion[]): AnswerBox[] {
  return questions.flatMap((q) => {
    const box = boxes[pathKey(q.path)];
    return box ? [box] : [];
  });
}

/**
 * The teacher's unsaved boxes, one per question: draw (replacing any box the question had),
 * edit, clear, and whether anything differs from what was last saved. Boxes of paths that are
 * not among `questions` (a question since removed) are left out of what is saved.
 */
export function useBoxDraft(initial: readonly AnswerBox[], questions: readonly BoxQuestion[]) {
  const [saved, setSaved] = useState(() => byPath(initial));
  const [boxes, setBoxes] = useState(() => byPath(initial));

  const setBox = useCallback((path: number[], page: number, rect: BoxRect) => {
    setBoxes((prev) => ({ ...prev, [pathKey(path)]: { path, page, ...rect } }));
  }, []);

  const updateBox = useCallback((path: number[], change: Partial<BoxRect>) => {
    setBoxes((prev) => {
      const key = pathKey(path);
      const box = prev[key];
      return box ? { ...prev, [key]: { ...box, ...change } } : prev;
    });
  }, []);

  const clearBox = useCallback((path: number[]) => {
    setBoxes((prev) => {
      const next = { ...prev };
      delete next[pathKey(path)];
      return next;
    });
  }, []);

  /** Makes `next` the saved state and the draft. */
  const markSaved = useCallback((next: readonly AnswerBox[]) => {
    setSaved(byPath(next));
    setBoxes(byPath(next));
  }, []);

  const list = useMemo(() => ordered(boxes, questions), [boxes, questions]);
  const dirty = useMemo(
    () => JSON.stringify(list) !== JSON.stringify(ordered(saved, questions)),
    [list, saved, questions],
  );
  const boxOf = useCallback((path: readonly number[]) => boxes[pathKey(path)], [boxes]);

  return { boxes: list, boxOf, setBox, updateBox, clearBox, markSaved, dirty };
}
