/** A question that gets an answer box: its path in the question tree and its label ("1a i"). */
export interface BoxQuestion {
  path: number[];
  label: string;
  /** The question's text, shown beside its label when given. */
  text?: string;
}

/** The part of a question tree node that labelling needs. */
export interface QuestionNode {
  questionText?: string;
  subquestions?: QuestionNode[] | null;
}

const ROMAN: [number, string][] = [
  [1000, 'm'], [900, 'cm'], [500, 'd'], [400, 'cd'], [100, 'c'], [90, 'xc'],
  [50, 'l'], [40, 'xl'], [10, 'x'], [9, 'ix'], [5, 'v'], [4, 'iv'], [1, 'i'],
];

function roman(n: number): string {
  let out = '';
  for (const [value, numeral] of ROMAN) {
    while (n >= value) {
      out += numeral;
      n -= value;
    }
  }
  return out;
}

function letters(n: number): string {
  // 1 → a … 26 → z, 27 → aa.
  let out = '';
  while (n > 0) {
    const rem = (n - 1) % 26;
    out = String.fromCharCode(97 + rem) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

/** The label of a question path: `[0]` → "1", `[0, 1]` → "1b", `[0, 1, 2]` → "1b iii". */
export function questionLabel(path: number[]): string {
  const [top, second, ...rest] = path;
  let label = String(top + 1);
  if (second !== undefined) label += letters(second + 1);
  for (const index of rest) label += ` ${roman(index + 1)}`;
  return label;
}

/** Every question of a tree, depth first, with its path and label. */
export function flattenQuestions(questions: readonly QuestionNode[] | null | undefined): BoxQuestion[] {
  const out: BoxQuestion[] = [];
  const walk = (nodes: readonly QuestionNode[], parent: number[]) => {
    nodes.forEach((node, index) => {
      const path = [...parent, index];
      const text = node.questionText?.trim();
      out.push({ path, label: questionLabel(path), ...(text ? { text } : {}) });
      if (node.subquestions?.length) walk(node.subquestions, path);
    });
  };
  walk(questions ?? [], []);
  return out;
}

/** A stable string for a path, to key maps and elements. */
export function pathKey(path: readonly number[]): string {
  return path.join('.');
}
