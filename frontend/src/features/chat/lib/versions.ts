import type { PastDocument } from '../types';

/** Which document the pane shows: the current one, or a past version by its position. */
export type VersionSelection = number | 'current';

/** What the document pane shows for a selection. */
export interface VersionView {
  /** The markdown shown. */
  shown: string;
  /** True for a past version (read-only, with "Use this version"). */
  readOnly: boolean;
  /** "Version k of n", or a note for a document edited since. */
  label: string;
  /** Where the previous and next buttons go; null disables them. */
  prev: VersionSelection | null;
  next: VersionSelection | null;
}

/** Records `document` as the version of the message at `messageIndex`: one per index, sorted. */
export function recordVersion(past: PastDocument[], messageIndex: number, document: string): PastDocument[] {
  return [...past.filter((p) => p.messageIndex !== messageIndex), { messageIndex, document }].sort(
    (a, b) => a.messageIndex - b.messageIndex,
  );
}

/**
 * What the pane shows. Versions are the past documents in message order. The current document is
 * the last version equal to it (editable), or, when it matches none (edited by hand), a draft that
 * comes after every version.
 */
export function viewVersion(versions: PastDocument[], current: string, selected: VersionSelection): VersionView {
  const n = versions.length;
  let matching = -1;
  for (let i = n - 1; i >= 0; i--) {
    if (versions[i].document === current) {
      matching = i;
      break;
    }
  }
  const currentPosition = matching >= 0 ? matching : n;
  const at = (position: number): VersionSelection => (position === currentPosition ? 'current' : position);
  const valid = selected === 'current' || selected < 0 || selected >= n ? 'current' : selected;
  const position = valid === 'current' ? currentPosition : valid;
  const lastPosition = matching >= 0 ? n - 1 : n;

  if (valid === 'current' || position === currentPosition) {
    let label = '';
    if (matching >= 0) label = `Version ${matching + 1} of ${n}`;
    else if (n > 0) label = `Edited draft · ${n} earlier ${n === 1 ? 'version' : 'versions'}`;
    return {
      shown: current,
      readOnly: false,
      label,
      prev: position > 0 ? at(position - 1) : null,
      next: position < lastPosition ? at(position + 1) : null,
    };
  }
  return {
    shown: versions[position].document,
    readOnly: true,
    label: `Version ${position + 1} of ${n}`,
    prev: position > 0 ? at(position - 1) : null,
    next: position < lastPosition ? at(position + 1) : null,
  };
}
