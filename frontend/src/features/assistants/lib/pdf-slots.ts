/** An assistant holds at most this many PDFs (spec §9). */
export const MAX_ASSISTANT_FILES = 3;

/** Which files of a new selection are read, and which are left out. */
export interface PdfSelection<T> {
  read: T[];
  leftOut: T[];
}

/**
 * Splits a new selection: only the first {@link MAX_ASSISTANT_FILES} are read, and never more
 * than the slots still free beside the `present` files.
 */
export function choosePdfs<T>(selection: T[], present: number): PdfSelection<T> {
  const free = Math.max(0, MAX_ASSISTANT_FILES - present);
  const take = Math.min(MAX_ASSISTANT_FILES, free, selection.length);
  return { read: selection.slice(0, take), leftOut: selection.slice(take) };
}
