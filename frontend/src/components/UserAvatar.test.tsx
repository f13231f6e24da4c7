import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { initials, UserAvatar } from './UserAvatar';

describe('UserAvatar', () => {
  it('draws the initials without adding text to the button it sits in, so the name "Account menu for …" covers what shows', () => {
    render(
      <button type="button" aria-label="Account menu for Ada Lovelace">
        <UserAvatar name="Ada Lovelace" />
        <span>Ada Lovelace</span>
      </button>,
    );
    const button = screen.getByRole('button', { name: 'Account menu for Ada Lovelace' });
    expect(button.textContent).toBe('Ada Lovelace');
    expect(button.querySelector('[data-initials]')).toHaveAttribute('data-initials', 'AL');
  });

  it('makes initials from the first and last names', () => {
    expect(initials('Ada Lovelace')).toBe('AL');
    expect(initials(' ada ')).toBe('A');
    expect(initials('')).toBe('?');
  });
});
