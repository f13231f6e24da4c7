import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LibrarySkeleton } from './LibraryPlaceholders';

describe('LibrarySkeleton', () => {
  it('is a status while the library loads: a name on a plain element is not allowed (axe aria-prohibited-attr)', () => {
    render(<LibrarySkeleton />);
    const skeleton = screen.getByRole('status', { name: 'Loading library' });
    expect(skeleton).toHaveAttribute('aria-busy', 'true');
  });
});
