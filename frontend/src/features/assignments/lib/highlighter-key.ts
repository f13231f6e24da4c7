/** The longest key a highlighter may have (spec §9). */
export const HIGHLIGHTER_KEY_MAX = 25;

/**
 * A highlighter's key: its title in camel case without punctuation, at most 25 characters.
 * Accents are dropped ("Ortografía" → "ortografia"), apostrophes join their word ("Teacher's
 * notes" → "teachersNotes") and leading digits are skipped so the key starts with a letter.
 * Returns '' when the title has no letters.
 *
 * @example highlighterKey('Grammar & spelling!') // 'grammarSpelling'
 */
export function highlighterKey(title: string): string {
  const words = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/['’]/g, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  const camel = words
    .map((word, i) => {
      const lower = word.toLowerCase();
      return i === 0 ? lower : lower.charAt(0).toUpperCase() + lower.slice(1);
    })
    .join('')
    .replace(/^[0-9]+/, '');
  const key = camel.charAt(0).toLowerCase() + camel.slice(1);
  return key.slice(0, HIGHLIGHTER_KEY_MAX);
}
