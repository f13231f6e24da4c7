/**
 * How a question is numbered everywhere (the assignment page, the wizard, the review screen, the
 * class summary): the top level by number, the second by letter, the third in small Roman
 * numerals — `[0]` is "1", `[2, 0]` is "3a", `[0, 1, 2]` is "1b iii".
 */
const ROMAN: [number, string][] = [
  [1000, 'm'], [900, 'cm'], [500, 'd'], [400, 'cd'], [100, 'c'], [90, 'xc'],
  [50, 'l'], [40, 'xl'], [10, 'x'], [9, 'ix'], [5, 'v'], [4, 'iv'], [1, 'i'],
];

function roman(n: number): string {
  let out = '';
  for (const [value, numeral] of ROMAN) {
    for (; n >= value; n -= value) out += numeral;
  }
  return out;
}

function letters(n: number): string {
  let out = '';
  for (; n > 0; n = Math.floor((n - 1) / 26)) out = String.fromCharCode(97 + ((n - 1) % 26)) + out;
  return out;
}

/** The label of a question's path of indexes: `[0, 1, 2]` → "1b iii". */
export function questionLabel(path: readonly number[]): string {
  const [top, second, ...rest] = path;
  let label = String(top + 1);
  if (second !== undefined) label += letters(second + 1);
  for (const index of rest) label += ` ${roman(index + 1)}`;
  return label;
}
