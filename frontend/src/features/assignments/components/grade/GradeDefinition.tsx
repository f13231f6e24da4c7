import { useMemo } from 'react';
import { useRubricList } from '../../../../lib/rubrics';
import type { Question } from '../../api/types';
import type { DefinitionProps } from '../page/definition-props';
import { QuestionTreeView } from '../view/QuestionTreeView';

function hasRubric(questions: Question[]): boolean {
  return questions.some((q) => q.rubricId !== null || hasRubric(q.subquestions ?? []));
}

/** A grade assignment's questions, read-only, with the names of the rubrics they use. */
export function GradeDefinition({ fn }: DefinitionProps) {
  const questions = fn.questions ?? [];
  const rubrics = useRubricList({ enabled: hasRubric(questions) });
  const names = useMemo(() => new Map((rubrics.data ?? []).map((r) => [r._id, r.name])), [rubrics.data]);
  return <QuestionTreeView questions={questions} rubricNames={names} />;
}
