import { describe, expect, it } from 'vitest';
import { reviewPosition } from './review-order';

const items = [
  { submissionId: 'a', status: 'reviewed' },
  { submissionId: 'b', status: 'graded' },
  { submissionId: 'c', status: 'reviewed' },
  { submissionId: 'd', status: 'failed' },
];

describe('review order', () => {
  it('knows the previous and next submission, with none past either end', () => {
    expect(reviewPosition(items, 'b')).toMatchObject({ index: 1, count: 4, previous: 'a', next: 'c' });
    expect(reviewPosition(items, 'a')).toMatchObject({ previous: null, next: 'b' });
    expect(reviewPosition(items, 'd')).toMatchObject({ previous: 'c', next: null });
  });

  it('finds the next not reviewed after this one, coming round from the start', () => {
    expect(reviewPosition(items, 'b').nextUnreviewed).toBe('d');
    expect(reviewPosition(items, 'd').nextUnreviewed).toBe('b');
    expect(reviewPosition(items, 'a').nextUnreviewed).toBe('b');
  });

  it('does not offer the submission itself, nor any when all others are reviewed', () => {
    const one = [
      { submissionId: 'a', status: 'reviewed' },
      { submissionId: 'b', status: 'graded' },
    ];
    expect(reviewPosition(one, 'b').nextUnreviewed).toBeNull();
  });

  it('offers the first not reviewed when the submission is not listed', () => {
    expect(reviewPosition(items, 'zz')).toMatchObject({ index: -1, previous: null, next: null, nextUnreviewed: 'b' });
  });
});
