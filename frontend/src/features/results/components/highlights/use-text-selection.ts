import { useEffect, useState, type RefObject } from 'react';

/** Words selected inside an element: what they say, where they start in its text, and where they are drawn. */
export interface TextSelection {
  passage: string;
  /** Characters of the element's text before the selection. */
  start: number;
  /** Where the words are drawn now (the element's box where that cannot be measured). */
  rect: () => DOMRect;
}

/**
 * The words the user has selected inside `ref`'s element (null when none, or when the selection
 * reaches outside it), followed as it changes.
 */
export function useTextSelection(ref: RefObject<HTMLElement | null>, enabled = true): TextSelection | null {
  const [selection, setSelection] = useState<TextSelection | null>(null);
  useEffect(() => {
    if (!enabled) {
      setSelection(null);
      return;
    }
    const read = () => {
      const el = ref.current;
      const sel = document.getSelection();
      if (!el || !sel || sel.rangeCount === 0 || sel.isCollapsed) {
        setSelection(null);
        return;
      }
      const range = sel.getRangeAt(0);
      if (!el.contains(range.startContainer) || !el.contains(range.endContainer)) {
        setSelection(null);
        return;
      }
      const passage = range.toString();
      if (passage.trim() === '') {
        setSelection(null);
        return;
      }
      const before = document.createRange();
      before.selectNodeContents(el);
      before.setEnd(range.startContainer, range.startOffset);
      const rect = () => (typeof range.getBoundingClientRect === 'function' ? range.getBoundingClientRect() : el.getBoundingClientRect());
      setSelection({ passage, start: before.toString().length, rect });
    };
    document.addEventListener('selectionchange', read);
    return () => document.removeEventListener('selectionchange', read);
  }, [ref, enabled]);
  return selection;
}
