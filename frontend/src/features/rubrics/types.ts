/** Shapes of the rubric API (docs/api-authoring.md, "Shapes"). */

export type { LevelRange, Rubric, RubricCriterion } from '../../lib/rubrics';
import type { RubricCriterion } from '../../lib/rubrics';

/** What rubric/put and rubric/update take besides the id. */
export interface RubricInput {
  name: string;
  criteria: RubricCriterion[];
}
