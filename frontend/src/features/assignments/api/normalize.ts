import type { Question } from './types';

export { normalizeRubric } from '../../../lib/rubrics';

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
