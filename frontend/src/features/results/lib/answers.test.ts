import { describe, expect, it } from 'vitest';
import type { AnswerNode } from '../api/types';
import { answerLabel, answersTotal, editAnswer, gradeNodes, maxPointsOf, toggleCriterion } from './answers';
import { resultFixture } from '../testing/render';

function node(criteria: boolean[], points: number, gradeAdjustment = 0, subanswers: AnswerNode[] = []): AnswerNode {
  return { answerBoxesCoordinates: null, answerMedia: [], subanswers, grade: { points, gradeAdjustment, feedback: '', criteria } };
}

const questions = [
  {
    questionText: 'Q1',
    criteria: [
      { description: 'a', points: 2 },
      { description: 'b', points: 1 },
    ],
    subquestions: [{ questionText: 'Q1a', criteria: [{ description: 'c', points: 1 }], subquestions: [{ questionText: 'Q1a i', criteria: [{ description: 'd', points: 3 }] }] }],
  },
  { questionText: 'Q2', criteria: [{ description: 'e', points: 2 }] },
];

// Question 1 (2 + adjustment 0.5) › 1a (1) › 1a i (3, adjustment -1); question 2 (0).
const answers = [node([true, false], 2, 0.5, [node([true], 1, 0, [node([true], 3, -1)])]), node([false], 0)];

describe('the answers tree', () => {
  it('labels answers as the assignment page labels questions', () => {
    expect(gradeNodes(answers, questions).map((n) => [n.label, n.question?.questionText])).toEqual([
      ['1', 'Q1'],
      ['1a', 'Q1a'],
      ['1a i', 'Q1a i'],
      ['2', 'Q2'],
    ]);
    expect(answerLabel([2, 27, 3])).toBe('3ab iv');
  });

  it('totals points and adjustments over every nested answer', () => {
    expect(answersTotal(answers)).toBe(2 + 0.5 + 1 + 3 - 1 + 0);
    expect(answersTotal(null)).toBe(0);
    expect(maxPointsOf(questions)).toBe(2 + 1 + 1 + 3 + 2);
  });

  it('toggles a nested criterion and gives the result back when toggled with the opposite change', () => {
    const result = resultFixture({ answers, totalPoints: 5.5, maxPoints: 9 });
    const off = toggleCriterion(result, [0, 0, 0], 0, -3);
    expect(off.answers?.[0].subanswers[0].subanswers[0].grade).toMatchObject({ criteria: [false], points: 0 });
    expect(off.totalPoints).toBe(2.5);
    // The rest of the tree is untouched, and the original is not changed.
    expect(off.answers?.[1]).toBe(answers[1]);
    expect(result.answers?.[0].subanswers[0].subanswers[0].grade.criteria).toEqual([true]);

    const back = toggleCriterion(off, [0, 0, 0], 0, 3);
    expect(back.answers).toEqual(result.answers);
    expect(back.totalPoints).toBe(5.5);
  });

  it('extends a short criteria list when a criterion beyond it is toggled', () => {
    const result = resultFixture({ answers: [node([], 0)], totalPoints: 0 });
    expect(toggleCriterion(result, [0], 1, 1).answers?.[0].grade).toMatchObject({ criteria: [false, true], points: 1 });
  });

  it('moves the total with a grade adjustment, and keeps feedback apart', () => {
    const result = resultFixture({ answers, totalPoints: 5.5 });
    const edited = editAnswer(result, [1], { gradeAdjustment: 1.5 });
    expect(edited.totalPoints).toBe(7);
    expect(edited.answers?.[1].grade).toMatchObject({ gradeAdjustment: 1.5, feedback: '' });
    const withFeedback = editAnswer(edited, [1], { feedback: 'Good' });
    expect(withFeedback.totalPoints).toBe(7);
    expect(withFeedback.answers?.[1].grade).toMatchObject({ gradeAdjustment: 1.5, feedback: 'Good' });
    expect(editAnswer(result, [5], { gradeAdjustment: 1 })).toBe(result);
  });
});
