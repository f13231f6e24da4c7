import type { ChatMessage, PastDocument } from '../types';

/** Which document the pane shows: the current one, or a past version by its position. */
export type VersionSelection = number | 'current';

/** What the document pane shows for a selection. */
export interface VersionView {
  /** The markdown shown. */
  shown: string;
  /** True for a past version (read-only, with "Use this version"). */
  readOnly: boolean;
  /** "Version k of n", "Your edit · version k of n", or a note for a document edited since. */
  label: string;
  /** Where the previous and next buttons go; null disables them. */
  prev: VersionSelection | null;
  next: VersionSelection | null;
}

/** One line of the versions list. */
export interface VersionEntry {
  selection: VersionSelection;
  /** "Version 2", "Version 3 · Your edit", or "Edited draft" for an edit not yet kept as a version. */
  label: string;
  /** The teacher's own edit, kept as a version when a revision was asked for. */
  edit: boolean;
  /** The one the pane shows now. */
  selected: boolean;
}

/** The label of a teacher's edit kept as a version. */
export const YOUR_EDIT = 'Your edit';

/** Records `document` as the version of the message at `messageIndex`: one per index, sorted. */
export function recordVersion(past: PastDocument[], messageIndex: number, document: string): PastDocument[] {
  return [...past.filter((p) => p.messageIndex !== messageIndex), { messageIndex, document }].sort(
    (a, b) => a.messageIndex - b.messageIndex,
  );
}

/**
 * True when `document` is a hand edit no version holds yet (not empty, equal to no past version):
 * asking for a revision then keeps it as a version of its own ("Your edit").
 */
export function isUnkeptEdit(past: PastDocument[], document: string): boolean {
  return document.trim() !== '' && !past.some((p) => p.document === document);
}

/**
 * The message indexes whose version is a teacher's edit: an edit is kept against the teacher's
 * message that asked for the revision, so it is the version of a user message (an answer's
 * version is that of an assistant message). The payload needs no field of its own.
 */
export function editIndexes(messages: ChatMessage[], past: PastDocument[]): Set<number> {
  return new Set(past.filter((p) => messages[p.messageIndex]?.role === 'user').map((p) => p.messageIndex));
}

/** Where the current document sits among the versions: the last equal to it, or after them all. */
function currentPosition(versions: PastDocument[], current: string): { position: number; matching: boolean } {
  for (let i = versions.length - 1; i >= 0; i--) {
    if (versions[i].document === current) return { position: i, matching: true };
  }
  return { position: versions.length, matching: false };
}

/** "Version k of n", or "Your edit · version k of n" for a teacher's edit. */
function versionLabel(versions: PastDocument[], position: number, edits: ReadonlySet<number>): string {
  const n = versions.length;
  return edits.has(versions[position].messageIndex)
    ? `${YOUR_EDIT} · version ${position + 1} of ${n}`
    : `Version ${position + 1} of ${n}`;
}

/**
 * What the pane shows. Versions are the past documents in message order; those in `edits` (message
 * indexes, see {@link editIndexes}) are the teacher's edits. The current document is the last
 * version equal to it (editable), or, when it matches none (edited by hand since), a draft that
 * comes after every version.
 */
export function viewVersion(
  versions: PastDocument[],
  current: string,
  selected: VersionSelection,
  edits: ReadonlySet<number> = new Set(),
): VersionView {
  const n = versions.length;
  const { position: currentAt, matching } = currentPosition(versions, current);
  const at = (position: number): VersionSelection => (position === currentAt ? 'current' : position);
  const valid = selected === 'current' || selected < 0 || selected >= n ? 'current' : selected;
  const position = valid === 'current' ? currentAt : valid;
  const lastPosition = matching ? n - 1 : n;
  const prev = position > 0 ? at(position - 1) : null;
  const next = position < lastPosition ? at(position + 1) : null;

  if (valid === 'current' || position === currentAt) {
    let label = '';
    if (matching) label = versionLabel(versions, currentAt, edits);
    else if (n > 0) label = `Edited draft · ${n} earlier ${n === 1 ? 'version' : 'versions'}`;
    return { shown: current, readOnly: false, label, prev, next };
  }
  return { shown: versions[position].document, readOnly: true, label: versionLabel(versions, position, edits), prev, next };
}

/** Every version, oldest first, for the versions list; an edit no version holds yet comes last. */
export function listVersions(
  versions: PastDocument[],
  current: string,
  selected: VersionSelection,
  edits: ReadonlySet<number> = new Set(),
): VersionEntry[] {
  const { position: currentAt, matching } = currentPosition(versions, current);
  const shown = selected === 'current' || selected < 0 || selected >= versions.length ? currentAt : selected;
  const entries: VersionEntry[] = versions.map((v, i) => {
    const edit = edits.has(v.messageIndex);
    return {
      selection: i === currentAt ? 'current' : i,
      label: edit ? `Version ${i + 1} · ${YOUR_EDIT}` : `Version ${i + 1}`,
      edit,
      selected: i === shown,
    };
  });
  if (!matching) entries.push({ selection: 'current', label: 'Edited draft', edit: true, selected: shown === currentAt });
  return entries;
}
