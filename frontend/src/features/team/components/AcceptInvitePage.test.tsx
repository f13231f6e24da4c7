import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { TEST_USER } from '../../../testing/handlers';
import { server } from '../../../testing/server';
import { currentPath, renderApp, signOutEverywhere } from '../../../testing/test-utils';

describe('invitation page', () => {
  it('accepts the invitation once, says so, and opens the library', async () => {
    const tokens: string[] = [];
    server.use(
      http.post('/api/v1/db/team/accept-invite', async ({ request }) => {
        tokens.push(((await request.json()) as { token: string }).token);
        return HttpResponse.json({ data: { team: { _id: 't2', name: 'Science Department' } } });
      }),
    );
    const { router } = renderApp('/invite/tok-123');

    expect(await screen.findByRole('alert')).toHaveTextContent('You joined Science Department');
    expect(await screen.findByRole('heading', { name: 'Library' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/library');
    expect(tokens).toEqual(['tok-123']);
  });

  it('refreshes the cached team once the invitation is accepted', async () => {
    let team = TEST_USER.team;
    server.use(
      http.post('/api/v1/db/team/accept-invite', () => {
        team = { ...team, _id: 't2', name: 'Science Department' };
        return HttpResponse.json({ data: { team: { _id: 't2', name: 'Science Department' } } });
      }),
      http.get('/api/v1/db/user/get', () => HttpResponse.json({ data: { user: { ...TEST_USER, team } } })),
    );
    const { router } = renderApp('/team');
    expect(await screen.findByText('Year 9 English · 2 members')).toBeInTheDocument();

    await act(() => router.navigate('/invite/tok-5'));
    expect(await screen.findByText('You joined Science Department')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/library'));

    await act(() => router.navigate('/team'));
    expect(await screen.findByText('Science Department · 2 members')).toBeInTheDocument();
  });

  it('explains an invitation that is no longer valid, with a way to the library', async () => {
    const user = userEvent.setup();
    server.use(
      http.post('/api/v1/db/team/accept-invite', () =>
        HttpResponse.json({ error: { code: 'not_found', message: 'Not found' } }, { status: 404 }),
      ),
    );
    const { router } = renderApp('/invite/used-token');

    expect(await screen.findByRole('heading', { name: 'This invitation is no longer valid.' })).toBeInTheDocument();
    expect(screen.getByText(/ask the colleague who invited you for a new link/i)).toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: 'Go to library' }));
    expect(await screen.findByRole('heading', { name: 'Library' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/library');
  });

  it('says clearly that a link has expired', async () => {
    server.use(
      http.post('/api/v1/db/team/accept-invite', () =>
        HttpResponse.json(
          { error: { code: 'invalid', message: "This invitation link has expired. Ask your team's owner for a new one." } },
          { status: 400 },
        ),
      ),
    );
    renderApp('/invite/old-link');

    expect(await screen.findByRole('heading', { name: 'This invitation is no longer valid.' })).toBeInTheDocument();
    expect(screen.getByText("This invitation link has expired. Ask your team's owner for a new one.")).toBeInTheDocument();
  });

  it('explains an invitation meant for another email address', async () => {
    const message = 'This invitation was sent to another email address. Sign in with that address to accept it.';
    server.use(
      http.post('/api/v1/db/team/accept-invite', () => HttpResponse.json({ error: { code: 'forbidden', message } }, { status: 403 })),
    );
    renderApp('/invite/for-someone-else');

    expect(await screen.findByRole('heading', { name: "You can't accept this invitation." })).toBeInTheDocument();
    expect(screen.getByText(message)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to library' })).toBeInTheDocument();
  });

  it('offers a retry when the server cannot be reached', async () => {
    const user = userEvent.setup();
    let calls = 0;
    server.use(
      http.post('/api/v1/db/team/accept-invite', () => {
        calls += 1;
        return calls === 1 ? HttpResponse.error() : HttpResponse.json({ data: { team: { _id: 't1', name: 'Year 9 English' } } });
      }),
    );
    renderApp('/invite/tok-9');

    expect(await screen.findByRole('heading', { name: "We couldn't accept this invitation." })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('You joined Year 9 English');
    await waitFor(() => expect(calls).toBe(2));
  });

  it('sends a signed-out visitor to sign in first, then back to the invitation', async () => {
    signOutEverywhere();
    const { router } = renderApp('/invite/tok-123');

    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(currentPath(router)).toBe('/signin?error=SessionRequired&callbackUrl=%2Finvite%2Ftok-123');
  });
});
