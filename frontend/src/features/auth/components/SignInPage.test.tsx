import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../../testing/test-utils';

describe('sign-in page', () => {
  it('asks the user to sign in when a session was required', async () => {
    renderApp('/signin?error=SessionRequired&callbackUrl=%2Flibrary');

    expect(await screen.findByRole('heading', { level: 1, name: 'Markwell' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Sign in' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Please sign in to continue.');
    expect(document.title).toBe('Sign in · Markwell');
  });

  it('shows a generic failure for other sign-in errors', async () => {
    renderApp('/signin?error=OAuthCallbackError');

    expect(await screen.findByRole('alert')).toHaveTextContent('Sign-in failed. Please try again.');
  });

  it('shows no error without one, and keeps the placeholder form disabled', async () => {
    renderApp('/signin');

    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Name' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Email' })).toBeInTheDocument();
    const continueButton = screen.getByRole('button', { name: 'Continue' });
    expect(continueButton).toBeDisabled();
    expect(continueButton).toHaveAccessibleDescription('Sign-in arrives with the next release.');
  });
});
