import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../testing/test-utils';

describe('routes', () => {
  it('redirects / to the library', async () => {
    const { router } = renderApp('/');

    expect(await screen.findByRole('heading', { name: 'Library' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/library');
    expect(document.title).toBe('Library · Markwell');
  });

  it('shows the empty library with a disabled New assignment button', async () => {
    renderApp('/library');

    expect(await screen.findByText("Your team's assignments and rubrics will appear here.")).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New assignment' })).toBeDisabled();
    expect(screen.getByRole('banner')).toHaveTextContent('Markwell');
  });

  it('shows a 404 page with a link back to the library', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/no/such/page');

    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(document.title).toBe('Page not found · Markwell');

    await user.click(screen.getByRole('link', { name: 'Back to library' }));

    expect(await screen.findByRole('heading', { name: 'Library' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/library');
  });
});
