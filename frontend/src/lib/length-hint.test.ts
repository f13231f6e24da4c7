import { describe, expect, it } from 'vitest';
import { lengthHint } from './length-hint';

describe('lengthHint', () => {
  it('says nothing far from the limit, counts near it, and says when the limit is reached', () => {
    expect(lengthHint('Essay', 200)).toBeUndefined();
    expect(lengthHint('x'.repeat(180), 200)).toBe('180 / 200 characters');
    expect(lengthHint('x'.repeat(200), 200)).toBe('200 / 200 characters (the most a name can have)');
  });
});
