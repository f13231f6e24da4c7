/** Shapes of the rubric API (docs/api-authoring.md, "Shapes"). */

/** The point range of one level, matched to its level by index. */
export interface LevelRange {
  levelDescriptionsIndex: number;
  min?: number;
  max?: number;
}

/** One row of a rubric: what is judged, and the levels of achievement for it. */
export interface RubricCriterion {
  criterionDescription: string;
  levelDescriptions: string[];
  useRange: boolean;
  levelRanges?: LevelRange[];
}

/** A saved rubric. */
export interface Rubric {
  _id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  criteria: RubricCriterion[];
}

/** What rubric/put and rubric/update take besides the id. */
export interface RubricInput {
  name: string;
  criteria: RubricCriterion[];
}
