import { describe, expect, it } from 'vitest';
import type { AnswerNode, FunctionResult } from '../api/types';
import { criteriaBreakdown, pointsDistribution, questionLabel } from './breakdown';
import type { ResultFunction } from './definition';
import { normalizeFunctionResult } from './normalize';

function node(criteria: boolean[], subanswers: AnswerNode[] = []): AnswerNode {
  return { answerBoxesCoordinates: null, answerMedia: [], subanswers, grade: { points: 0, gradeAdjustment: 0, feedback: '', criteria } };
}

function result(fields: Partial<FunctionResult>): FunctionResult {
  return { ...normalizeFunctionResult({ _id: 'r', submission: 's', status: 'graded' }), ...fields };
}

describe('class breakdown', () => {
  it('labels questions by their place in the tree', () => {
    expect(questionLabel([0])).toBe('Q1');
    expect(questionLabel([2, 1])).toBe('Q3b');
    expect(questionLabel([0, 0, 3])).toBe('Q1a.iv');
  });

  it('gives the share of finished grade results that met each criterion, nested questions included', () => {
    const fn: ResultFunction = {
      _id: 'f',
      questions: [
        {
          questionText: 'Causes',
          criteria: [{ description: 'Names two causes', points: 2 }],
          subquestions: [{ questionText: 'Part b', criteria: [{ description: 'Dates', points: 1 }] }],
        },
      ],
    };
    const results = [
      result({ answers: [node([true], [node([true])])] }),
      result({ answers: [node([false], [node([true])])] }),
      result({ status: 'reviewed', answers: [node([true], [node([false])])] }),
      result({ status: 'grading', answers: [node([true], [node([true])])] }), // not finished: left out
    ];
    expect(criteriaBreakdown('grade', fn, results)).toEqual([
      { label: 'Q1: Names two causes', successRate: 2 / 3, averagePoints: 4 / 3, maxPoints: 2 },
      { label: 'Q1a: Dates', successRate: 2 / 3, averagePoints: 2 / 3, maxPoints: 1 },
    ]);
  });

  it('gives the share of points earned per rubric criterion', () => {
    const fn: ResultFunction = {
      _id: 'f',
      rubric: {
        criteria: [
          { criterionDescription: 'Thesis', levelDescriptions: ['a', 'b', 'c', 'd'], useRange: false },
          {
            criterionDescription: 'Evidence',
            levelDescriptions: ['weak', 'strong'],
            useRange: true,
            levelRanges: [
              { levelDescriptionsIndex: 0, min: 0, max: 4 },
              { levelDescriptionsIndex: 1, min: 5, max: 10 },
            ],
          },
        ],
      },
    };
    const results = [result({ criteriaPoints: [3, 10] }), result({ criteriaPoints: [0, 5] })];
    expect(criteriaBreakdown('rubric-feedback', fn, results)).toEqual([
      { label: 'Thesis', successRate: 0.5, averagePoints: 1.5, maxPoints: 3 },
      { label: 'Evidence', successRate: 0.75, averagePoints: 7.5, maxPoints: 10 },
    ]);
    expect(criteriaBreakdown('feedback', fn, results)).toEqual([]);
  });

  it('counts results per point up to 20 points, and per tenth beyond', () => {
    const small = [3, 3, 4.5, 0, 10].map((p) => result({ totalPoints: p, maxPoints: 5 }));
    const d = pointsDistribution([...small, result({ status: 'failed', totalPoints: 1, maxPoints: 5 })]);
    expect(d.scale).toBe('points');
    expect(d.buckets.map((b) => b.count)).toEqual([1, 0, 0, 2, 1, 1]);
    expect(d.results).toBe(5);
    expect(d.mean).toBe(4.1);

    const big = pointsDistribution([result({ totalPoints: 95, maxPoints: 100 }), result({ totalPoints: 100, maxPoints: 100 }), result({ totalPoints: 12, maxPoints: 100 })]);
    expect(big.scale).toBe('percent');
    expect(big.buckets[9]).toEqual({ label: '90–100%', count: 2 });
    expect(big.buckets[1]).toEqual({ label: '10–19%', count: 1 });
  });
});
