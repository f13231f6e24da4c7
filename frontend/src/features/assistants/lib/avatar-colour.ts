/** Background colours of letter avatars, dark enough for white text (WCAG AA). */
const COLOURS = ['#17616b', '#8a4b08', '#5b3d8f', '#2e6b30', '#a23b4c', '#35558f', '#6b5417'];

/** A stable colour for a title, so an assistant keeps its colour between visits. */
export function avatarColour(title: string): string {
  let hash = 0;
  for (const ch of title) hash = (hash * 31 + (ch.codePointAt(0) ?? 0)) >>> 0;
  return COLOURS[hash % COLOURS.length];
}

/** The letter of a letter avatar: the title's first letter or digit, upper-cased, or "?". */
export function avatarLetter(title: string): string {
  const match = /[\p{L}\p{N}]/u.exec(title);
  return match ? match[0].toUpperCase() : '?';
}
