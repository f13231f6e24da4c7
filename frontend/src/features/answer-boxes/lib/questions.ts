import { questionLabel } from '../../../lib/question-label';

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

/** The label of a question path: `[0]` → "1", `[0, 1]` → "1b", `[0, 1, 2]` → "1b iii" (numbered as everywhere). */
export { questionLabel };

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
