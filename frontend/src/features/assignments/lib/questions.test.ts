import { describe, expect, it } from 'vitest';
import {
  addSubquestion,
  canNest,
  moveAt,
  newCriterion,
  newQuestion,
  questionNumber,
  questionsCount,
  questionDrafts,
  questionsProblem,
  removeAt,
  toApiQuestions,
  totalPoints,
  type QuestionDraft,
} from './questions';

function question(text: string, points: number[] = [], subquestions: QuestionDraft[] = []): QuestionDraft {
  return { ...newQuestion(text), criteria: points.map((p) => newCriterion(`worth ${p}`, p)), subquestions };
}

describe('question tree', () => {
  it('a new criterion has an empty description and 1 point', () => {
    expect(newCriterion()).toMatchObject({ description: '', points: '1' });
  });

  it('totals the points of every criterion at every level', () => {
    const tree = [question('1', [2, 3], [question('1a', [1], [question('1a i', [4])])]), question('2', [0.5])];
    expect(totalPoints(tree)).toBe(10.5);
  });

  it('nests at most three levels', () => {
    expect(canNest([0])).toBe(true);
    expect(canNest([0, 0])).toBe(true);
    expect(canNest([0, 0, 0])).toBe(false);
    let tree = [question('1')];
    tree = addSubquestion(tree, [0]);
    tree = addSubquestion(tree, [0, 0]);
    expect(addSubquestion(tree, [0, 0, 0])).toBe(tree);
  });

  it('moves and removes questions among their siblings', () => {
    const tree = [question('A', [], [question('A1'), question('A2')]), question('B')];
    const moved = moveAt(tree, [0, 1], -1);
    expect(moved[0].subquestions.map((q) => q.questionText)).toEqual(['A2', 'A1']);
    expect(moveAt(tree, [1], 1)).toEqual(tree);
    expect(removeAt(tree, [0]).map((q) => q.questionText)).toEqual(['B']);
  });

  it('names the first problem', () => {
    expect(questionsProblem([])).toBe('Add at least one question to continue.');
    expect(questionsProblem([question('A', [], [question('')])])).toBe('Question 1a needs question text.');
    const badPoints = question('A');
    badPoints.criteria = [{ ...newCriterion('Clear'), points: '1001' }];
    expect(questionsProblem([badPoints])).toBe('Question 1: criterion 1 needs points from 0 to 1000.');
    expect(questionsProblem([question('A', [1])])).toBeNull();
    // Grading refuses a tree without a single criterion; a subquestion's criterion is enough.
    expect(questionsProblem([question('A'), question('B', [], [question('B1')])])).toBe(
      'Add at least one criterion to a question to continue.',
    );
    expect(questionsProblem([question('A', [], [question('A1', [], [question('A1i', [1])])])])).toBeNull();
  });

  it('converts drafts to the API shape', () => {
    expect(toApiQuestions([question(' A ', [2], [question('A1')])])).toEqual([
      {
        questionText: 'A',
        context: '',
        rubricId: null,
        criteria: [{ description: 'worth 2', points: 2 }],
        subquestions: [{ questionText: 'A1', context: '', rubricId: null, criteria: [], subquestions: [] }],
      },
    ]);
  });
});

describe('numbers and counts as the teacher reads them', () => {
  it('numbers subquestions as the review screen and summary do: 3a, 1b iii', () => {
    expect(questionNumber([2])).toBe('3');
    expect(questionNumber([2, 0])).toBe('3a');
    expect(questionNumber([0, 1, 2])).toBe('1b iii');
  });

  it('counts the top-level questions, and says how many subquestions they have', () => {
    const q = (subquestions: unknown[] = []) => ({ subquestions });
    expect(questionsCount([q(), q(), q()])).toBe('3');
    expect(questionsCount([q(), q(), q([q()])])).toBe('3, with 1 subquestion');
    expect(questionsCount([q([q(), q([q()])])])).toBe('1, with 3 subquestions');
  });
});

describe('editing a saved definition', () => {
  it('keeps the saved ids of questions and criteria through a move, and sends none for new ones', () => {
    const saved = [
      { id: 'q_a', questionText: 'One', context: '', rubricId: null, criteria: [{ id: 'c_1', description: 'x', points: 2 }], subquestions: [] },
      { id: 'q_b', questionText: 'Two', context: '', rubricId: null, criteria: [{ id: 'c_2', description: 'y', points: 1 }], subquestions: [] },
    ];
    let drafts = questionDrafts(saved);
    drafts = moveAt(drafts, [1], -1);
    drafts = [...drafts, { ...newQuestion('Three'), criteria: [newCriterion('z', 3)] }];
    const api = toApiQuestions(drafts);
    expect(api.map((q) => q.id)).toEqual(['q_b', 'q_a', undefined]);
    expect(api.map((q) => q.criteria[0].id)).toEqual(['c_2', 'c_1', undefined]);
    expect(api[0].criteria[0]).toEqual({ id: 'c_2', description: 'y', points: 1 });
  });
});
