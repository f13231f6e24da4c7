/** The longest key a highlighter may have (spec §9). */
export const HIGHLIGHTER_KEY_MAX = 25;

/**
 * A highlighter's key: its title in camel case without punctuation, at most 25 characters, as
 * the server derives it. Apostrophes join their word ("Teacher's notes" → "teachersNotes"),
 * other punctuation separates words, letters of any script count, and leading digits are
 * skipped so the key starts with a letter. Returns '' when the title has no letters.
 *
 * @example highlighterKey('Grammar & spelling!') // 'grammarSpelling'
 */
export function highlighterKey(title: string): string {
  const words = title
    .replace(/['’]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  const camel = words
    .map((word, i) => {
      const lower = word.toLowerCase();
      if (i === 0) return lower;
      const [first = '', ...rest] = Array.from(lower);
      return first.toUpperCase() + rest.join('');
    })
    .join('')
    .replace(/^\p{N}+/u, '');
  // Count characters, not UTF-16 units, as the server does.
  const chars = Array.from(camel);
  if (chars.length > 0) chars[0] = chars[0].toLowerCase();
  return chars.slice(0, HIGHLIGHTER_KEY_MAX).join('');
}
