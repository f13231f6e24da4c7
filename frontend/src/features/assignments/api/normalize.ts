import type { Question, Rubric } from './types';

/** A question tree with every list present (the server may send null for an empty list). */
export function normalizeQuestions(questions: Question[] | null | undefined): Question[] {
  return (questions ?? []).map((q) => ({
    ...q,
    context: q.context ?? '',
    rubricId: q.rubricId ?? null,
    criteria: q.criteria ?? [],
    subquestions: normalizeQuestions(q.subquestions),
  }));
}

/** A rubric with every list present. */
export function normalizeRubric(rubric: Rubric): Rubric {
  return {
    ...rubric,
    criteria: (rubric.criteria ?? []).map((c) => ({ ...c, levelDescriptions: c.levelDescriptions ?? [] })),
  };
}
