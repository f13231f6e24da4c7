import { fallbackColor } from '../../../lib/highlight-paint';
import type { RubricCriterion } from '../../../lib/rubrics';
import type { HighlighterInfo } from './definition';

/** The longest title a rubric criterion's highlighter gets (its description, cut with an ellipsis). */
const MAX_TITLE = 60;

function shortTitle(description: string, index: number): string {
  const text = description.replace(/\s+/g, ' ').trim();
  if (text === '') return `Criterion ${index + 1}`;
  return text.length > MAX_TITLE ? `${text.slice(0, MAX_TITLE - 1).trimEnd()}…` : text;
}

/**
 * The highlighters of a rubric-feedback result: one per rubric criterion, with the key the grader
 * highlights with (`criterion1`, `criterion2` …, as internal/grading's RubricHighlightKeys), the
 * criterion's description as its title (so a tooltip names it, not "Criterion 2") and a colour of
 * its own.
 */
export function rubricHighlighters(criteria: readonly RubricCriterion[]): HighlighterInfo[] {
  return criteria.map((c, i) => ({ key: `criterion${i + 1}`, title: shortTitle(c.criterionDescription, i), color: fallbackColor(i) }));
}
