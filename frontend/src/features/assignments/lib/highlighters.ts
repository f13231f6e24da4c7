import type { Highlighter } from '../api/types';
import { nextHighlighterColor } from './colors';
import { highlighterKey } from './highlighter-key';

/** A highlighter being edited; its key follows its title. */
export interface HighlighterDraft {
  id: string;
  title: string;
  description: string;
  color: string;
}

/** The first highlighter of every feedback assignment (spec §3). */
export const DEFAULT_HIGHLIGHTER: Highlighter = {
  title: 'Grammar',
  color: 'purple-500',
  description: 'This highlighter should point out any grammar mistakes.',
  key: 'grammar',
};

let sequence = 0;
function nextId(): string {
  sequence += 1;
  return `h${sequence}`;
}

/** The highlighters a new feedback assignment starts with: Grammar alone. */
export function defaultHighlighters(): HighlighterDraft[] {
  const { title, description, color } = DEFAULT_HIGHLIGHTER;
  return [{ id: nextId(), title, description, color }];
}

/** A new, untitled highlighter in a colour none of `existing` uses. */
export function newHighlighter(existing: HighlighterDraft[]): HighlighterDraft {
  return { id: nextId(), title: '', description: '', color: nextHighlighterColor(existing.map((h) => h.color)) };
}

/** The first problem that stops the highlighters from being saved, or null when they are ready. */
export function highlightersProblem(highlighters: HighlighterDraft[]): string | null {
  if (highlighters.length === 0) return 'Add at least one highlighter to continue.';
  const seen = new Map<string, number>();
  for (const [i, h] of highlighters.entries()) {
    const n = i + 1;
    if (h.title.trim() === '') return `Give highlighter ${n} a title.`;
    const key = highlighterKey(h.title);
    if (key === '') return `Highlighter ${n}'s title needs at least one letter.`;
    const other = seen.get(key);
    if (other !== undefined) return `Highlighters ${other} and ${n} have the same key "${key}"; give them different titles.`;
    seen.set(key, n);
    if (h.description.trim() === '') return `Describe what highlighter ${n} should point out.`;
  }
  return null;
}

/** The highlighters as the API takes them, each with its key. */
export function toApiHighlighters(highlighters: HighlighterDraft[]): Highlighter[] {
  return highlighters.map((h) => ({
    key: highlighterKey(h.title),
    color: h.color,
    title: h.title.trim(),
    description: h.description.trim(),
  }));
}
