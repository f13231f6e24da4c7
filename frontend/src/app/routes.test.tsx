import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { SESSION_CHANNEL } from '../features/auth/session/broadcast';
import { browserLocation } from '../lib/navigation';
import { TEST_CSRF_TOKEN, TEST_SESSION } from '../testing/handlers';
import { server } from '../testing/server';
import { currentPath, renderApp, signOutEverywhere } from '../testing/test-utils';

describe('routes', () => {
  it('redirects / to the library', async () => {
    const { router } = renderApp('/');

    expect(await screen.findByRole('heading', { name: 'Library' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/library');
    expect(document.title).toBe('Library · Markwell');
  });

  it('shows the library under the app bar with the account menu', async () => {
    renderApp('/library');

    expect(await screen.findByRole('heading', { name: 'Library' })).toBeInTheDocument();
    const banner = screen.getByRole('banner');
    expect(banner).toHaveTextContent('Markwell');
    expect(within(banner).getByRole('button', { name: 'Account menu for Ada Lovelace' })).toBeInTheDocument();
  });

  it('marks the current section in the app bar: Tools also while a workflow runs', async () => {
    server.use(http.get('/api/v1/catalog', () => HttpResponse.json({ data: { tools: [], workflows: [] } })));
    renderApp('/workflows/lesson-plan');

    const nav = await screen.findByRole('navigation', { name: 'Sections' });
    expect(within(nav).getByRole('link', { name: 'Tools' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Library' })).not.toHaveAttribute('aria-current');
    expect(within(nav).getByRole('link', { name: 'Chat' })).not.toHaveAttribute('aria-current');
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

describe('protected pages', () => {
  it('show a spinner while the session loads', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.get('/api/auth/session', async () => {
        await gate;
        return HttpResponse.json(TEST_SESSION);
      }),
    );
    renderApp('/library');

    // First the page's code loads (a plain spinner), then the session's spinner holds the page back.
    expect(await screen.findByRole('progressbar', { name: 'Loading your session' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Library' })).not.toBeInTheDocument();
    release();
    expect(await screen.findByRole('heading', { name: 'Library' })).toBeInTheDocument();
  });

  it('send a signed-out visitor to sign in with error=SessionRequired and the callback URL', async () => {
    signOutEverywhere();
    const { router } = renderApp('/team?tab=invites');

    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Please sign in to continue.');
    expect(currentPath(router)).toBe('/signin?error=SessionRequired&callbackUrl=%2Fteam%3Ftab%3Dinvites');
    // Replaced, not pushed: Back does not return to the page that bounced.
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('go to sign-in when another tab signs out', async () => {
    const { router } = renderApp('/library');
    await screen.findByRole('heading', { name: 'Library' });

    signOutEverywhere();
    const otherTab = new BroadcastChannel(SESSION_CHANNEL);
    otherTab.postMessage({ event: 'session', trigger: 'signout', tabId: 'other-tab', timestamp: Date.now() });
    otherTab.close();

    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(currentPath(router)).toBe('/signin?error=SessionRequired&callbackUrl=%2Flibrary');
  });

  it('go to sign-in when the session has expired by the time the tab is shown again', async () => {
    const { router } = renderApp('/team');
    await screen.findByRole('heading', { name: 'Team' });

    signOutEverywhere();
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });

    await waitFor(() => expect(currentPath(router)).toBe('/signin?error=SessionRequired&callbackUrl=%2Fteam'));
  });
});

describe('app bar account menu', () => {
  it('shows the user and opens Team and Sign out from the keyboard', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/library');
    const button = await screen.findByRole('button', { name: 'Account menu for Ada Lovelace' });
    expect(button).toHaveTextContent('Ada Lovelace');

    button.focus();
    await user.keyboard('{Enter}');
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Team' })).toHaveFocus();
    expect(within(menu).getByRole('menuitem', { name: 'Sign out' })).toBeInTheDocument();

    await user.keyboard('{Enter}');

    expect(await screen.findByRole('heading', { name: 'Team' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/team');
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
  });

  it('signs out, tells other tabs, and goes to the sign-in page', async () => {
    const user = userEvent.setup();
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => {});
    const posts: Record<string, string>[] = [];
    server.use(
      http.post('/api/auth/signout', async ({ request }) => {
        posts.push(Object.fromEntries(new URLSearchParams(await request.text())));
        return HttpResponse.json({ url: 'http://localhost:3000/signin' });
      }),
    );
    const otherTab = new BroadcastChannel(SESSION_CHANNEL);
    const broadcast = vi.fn();
    otherTab.onmessage = (event: MessageEvent) => broadcast(event.data);
    renderApp('/library');

    await user.click(await screen.findByRole('button', { name: /account menu/i }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sign out' }));

    await waitFor(() => expect(assign).toHaveBeenCalledWith('/signin'));
    expect(posts).toEqual([{ csrfToken: TEST_CSRF_TOKEN, callbackUrl: '/signin', json: 'true' }]);
    await waitFor(() => expect(broadcast).toHaveBeenCalledWith(expect.objectContaining({ trigger: 'signout' })));
    otherTab.close();
  });

  it('says so when signing out fails', async () => {
    const user = userEvent.setup();
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => {});
    server.use(http.post('/api/auth/signout', () => HttpResponse.error()));
    renderApp('/library');

    await user.click(await screen.findByRole('button', { name: /account menu/i }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sign out' }));

    expect(await screen.findByRole('alert')).toHaveTextContent("Couldn't sign out. Please try again.");
    expect(assign).not.toHaveBeenCalled();
  });
});
