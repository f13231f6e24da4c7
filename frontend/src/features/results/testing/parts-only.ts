import type { AnswerNode } from '../api/types';

/** A grade question with parts only, for the results feature's tests. */

/** Question 1 (2 points), and question 2 with no criteria of its own, only parts a (1 point) and b (3 points). */
export const PARTS_ONLY = {
  _id: 'fn4',
  questions: [
    { questionText: 'Name the organ.', criteria: [{ description: 'Names the heart', points: 2 }], subquestions: [] },
    {
      questionText: 'Answer both parts.',
      criteria: [],
      subquestions: [
        { questionText: 'What?', criteria: [{ description: 'Names it', points: 1 }], subquestions: [] },
        { questionText: 'Why?', criteria: [{ description: 'Explains why', points: 3 }], subquestions: [] },
      ],
    },
  ],
};

function graded(points: number, criteria: boolean[], subanswers: AnswerNode[] = [], feedback = ''): AnswerNode {
  return { answerBoxesCoordinates: null, answerMedia: [], subanswers, grade: { points, gradeAdjustment: 0, feedback, criteria } };
}

/** 2 of 2 on question 1; question 2: part a not met (0 of 1), part b met (3 of 3). */
export const PARTS_ONLY_ANSWERS: AnswerNode[] = [
  graded(2, [true]),
  graded(0, [], [graded(0, [false]), graded(3, [true])], 'Both parts tried.'),
];
