/**
 * Shapes of the answer-box API (`db/assignment/answer-boxes/*`, `db/submission/page-image`).
 * Coordinates are fractions (0..1) of the page image.
 */

/** One question's answer box: where on which page of a submission its answer is written. */
export interface AnswerBox {
  /** Indexes into the question tree, e.g. `[0]` for question 1 or `[1, 0]` for 2a. */
  path: number[];
  /** 0-based page number. */
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The submission the boxes are drawn on: the assignment's first ready submission. */
export interface AnswerBoxSample {
  submissionId: string;
  pageCount: number;
}

/** What `db/assignment/answer-boxes/get` returns; `sample` is null until a submission is ready. */
export interface AnswerBoxes {
  boxes: AnswerBox[];
  sample: AnswerBoxSample | null;
}
