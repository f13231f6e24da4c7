import { describe, expect, it } from 'vitest';
import type { AnswerNode, FunctionResult } from '../api/types';
import { criteriaBreakdown, pointsDistribution, summaryQuestionLabel } from './breakdown';
import type { ResultFunction } from './definition';
import { normalizeFunctionResult } from './normalize';

function node(criteria: boolean[], subanswers: AnswerNode[] = []): AnswerNode {
  return { answerBoxesCoordinates: null, answerMedia: [], subanswers, grade: { points: 0, gradeAdjustment: 0, feedback: '', criteria } };
}

function result(fields: Partial<FunctionResult>): FunctionResult {
  return { ...normalizeFunctionResult({ _id: 'r', submission: 's', status: 'graded' }), ...fields };
}

describe('class breakdown', () => {
  it('labels questions by their place in the tree, as the review screen and the CSV do', () => {
    expect(summaryQuestionLabel([0])).toBe('Q1');
    expect(summaryQuestionLabel([2, 1])).toBe('Q3b');
    expect(summaryQuestionLabel([0, 0, 3])).toBe('Q1a iv');
    expect(summaryQuestionLabel([0, 27])).toBe('Q1ab');
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

  // Levels are listed best first (docs/api-grading.md): Thesis has 4 levels without ranges, so
  // level 0 scores 4 − 0 = 4 … level 3 scores 4 − 3 = 1, max 4; Evidence's best level is 5–10, max 10.
  const RUBRIC_FN: ResultFunction = {
    _id: 'f',
    rubric: {
      criteria: [
        { criterionDescription: 'Thesis', levelDescriptions: ['Sharp', 'Clear', 'Vague', 'Missing'], useRange: false },
        {
          criterionDescription: 'Evidence',
          levelDescriptions: ['Strong', 'Weak'],
          useRange: true,
          levelRanges: [
            { levelDescriptionsIndex: 0, min: 5, max: 10 },
            { levelDescriptionsIndex: 1, min: 0, max: 4 },
          ],
        },
      ],
    },
  };

  it('gives the share of points earned per rubric criterion', () => {
    const results = [
      result({ criteriaLevels: [0, 0], criteriaPoints: [4, 10] }), // Sharp: 4 − 0 = 4; Strong: 10
      result({ criteriaLevels: [2, 1], criteriaPoints: [2, 3] }), // Vague: 4 − 2 = 2; Weak: 3
      result({ status: 'rubric-grading', criteriaLevels: [3, 1], criteriaPoints: [1, 0] }), // not finished: left out
    ];
    // Thesis: (4 + 2) / 2 = 3 of 4; Evidence: (10 + 3) / 2 = 6.5 of 10.
    expect(criteriaBreakdown('rubric-feedback', RUBRIC_FN, results)).toEqual([
      { label: 'Thesis', successRate: 3 / 4, averagePoints: 3, maxPoints: 4 },
      { label: 'Evidence', successRate: 6.5 / 10, averagePoints: 6.5, maxPoints: 10 },
    ]);
    expect(criteriaBreakdown('feedback', RUBRIC_FN, results)).toEqual([]);
  });

  it('counts rubric points as the API totals them: by level without ranges, within the range with them', () => {
    const results = [
      // Stored points that disagree with the level (lowest-first index, out of range):
      // Thesis at Clear counts 4 − 1 = 3, not the stored 1; Evidence at Weak counts 6 kept in 0–4 = 4.
      result({ criteriaLevels: [1, 1], criteriaPoints: [1, 6] }),
      // No level chosen: 0 for each criterion.
      result({ criteriaLevels: [], criteriaPoints: [] }),
    ];
    // Thesis: (3 + 0) / 2 = 1.5 of 4; Evidence: (4 + 0) / 2 = 2 of 10.
    expect(criteriaBreakdown('rubric-feedback', RUBRIC_FN, results)).toEqual([
      { label: 'Thesis', successRate: 1.5 / 4, averagePoints: 1.5, maxPoints: 4 },
      { label: 'Evidence', successRate: 2 / 10, averagePoints: 2, maxPoints: 10 },
    ]);
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
