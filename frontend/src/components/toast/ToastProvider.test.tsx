import Button from '@mui/material/Button';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderApp, renderWithProviders, signOutEverywhere } from '../../testing/test-utils';
import { TOAST_DURATION_MS, TOAST_EVENT, useToast, type ToastOptions } from './index';

/** Lets the exit transition that starts when the toast hides run to the end. */
const EXIT_TRANSITION_MS = 1000;

function ShowToastButton(props: ToastOptions) {
  const { showToast } = useToast();
  return <Button onClick={() => showToast(props)}>Show toast</Button>;
}

describe('global toast', () => {
  it('uses the spec duration of 5000 ms', () => {
    expect(TOAST_DURATION_MS).toBe(5000);
  });

  it.each([
    ['success', 'Success', 'Assistant saved successfully'],
    ['error', 'Error', 'Error saving assistant'],
    ['warning', 'Warning', 'Please fill in all required fields'],
  ] as const)('shows a %s toast with its icon and hides it after the duration', (type, iconName, message) => {
    vi.useFakeTimers();
    renderWithProviders(<ShowToastButton type={type} message={message} />);

    fireEvent.click(screen.getByRole('button', { name: 'Show toast' }));

    const toast = screen.getByRole('alert');
    expect(toast).toHaveTextContent(message);
    expect(screen.getByRole('img', { name: iconName })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Close' })).toBeInTheDocument();

    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS - 100));
    expect(screen.getByRole('alert')).toHaveTextContent(message);

    act(() => vi.advanceTimersByTime(100));
    act(() => vi.advanceTimersByTime(EXIT_TRANSITION_MS));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('honours a custom duration', () => {
    vi.useFakeTimers();
    renderWithProviders(<ShowToastButton type="success" message="Folder created successfully" duration={1000} />);

    fireEvent.click(screen.getByRole('button', { name: 'Show toast' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Folder created successfully');

    act(() => vi.advanceTimersByTime(1000));
    act(() => vi.advanceTimersByTime(EXIT_TRANSITION_MS));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('hides when the close button is clicked', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ShowToastButton type="error" message="Error creating folder" />);

    await user.click(screen.getByRole('button', { name: 'Show toast' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Error creating folder');

    await user.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
  });

  it('shows a toast dispatched as a markwell:toast CustomEvent on any page', async () => {
    renderApp('/library');
    await screen.findByRole('heading', { name: 'Library' });

    act(() => {
      window.dispatchEvent(new CustomEvent(TOAST_EVENT, { detail: { type: 'warning', message: 'Grading submissions! This should take 1-2 minutes.' } }));
    });

    expect(await screen.findByRole('alert')).toHaveTextContent('Grading submissions! This should take 1-2 minutes.');
    expect(screen.getByRole('img', { name: 'Warning' })).toBeInTheDocument();
  });

  it('ignores a markwell:toast event with an unknown type', async () => {
    signOutEverywhere();
    renderApp('/signin');
    await screen.findByRole('heading', { name: 'Sign in' });

    act(() => {
      window.dispatchEvent(new CustomEvent(TOAST_EVENT, { detail: { type: 'info', message: 'Hello' } }));
    });

    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
