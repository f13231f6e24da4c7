import { describe, expect, it } from 'vitest';
import { flattenQuestions, questionLabel } from './questions';

describe('flattenQuestions', () => {
  it('labels every question of the tree depth first as 1, 1a, 1a i', () => {
    const tree = [
      { questionText: 'One', subquestions: [{ questionText: 'One a', subquestions: [{ questionText: 'i' }, { questionText: 'ii' }, { questionText: 'iii' }, { questionText: 'iv' }] }] },
      { questionText: '  ', subquestions: [] },
    ];
    expect(flattenQuestions(tree)).toEqual([
      { path: [0], label: '1', text: 'One' },
      { path: [0, 0], label: '1a', text: 'One a' },
      { path: [0, 0, 0], label: '1a i', text: 'i' },
      { path: [0, 0, 1], label: '1a ii', text: 'ii' },
      { path: [0, 0, 2], label: '1a iii', text: 'iii' },
      { path: [0, 0, 3], label: '1a iv', text: 'iv' },
      { path: [1], label: '2' },
    ]);
  });

  it('keeps counting letters past z', () => {
    expect(questionLabel([2, 25])).toBe('3z');
    expect(questionLabel([2, 26])).toBe('3aa');
    expect(questionLabel([0, 1, 8])).toBe('1b ix');
  });
});
