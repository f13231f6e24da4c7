import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { browserLocation } from '../../../lib/navigation';
import { provider, TEST_CSRF_TOKEN } from '../../../testing/handlers';
import { server } from '../../../testing/server';
import { currentPath, renderApp, signOutEverywhere } from '../../../testing/test-utils';
import { SESSION_CHANNEL } from '../session/broadcast';

const GOOGLE = provider('google', 'Google');
const OIDC = provider('oidc', 'Keycloak');
const CREDENTIALS = provider('credentials', 'Development sign-in', 'credentials');

function withProviders(...list: ReturnType<typeof provider>[]) {
  server.use(http.get('/api/auth/providers', () => HttpResponse.json(Object.fromEntries(list.map((p) => [p.id, p])))));
}

/** Records the form posts to an auth endpoint and answers each with `answer`. */
function recordPosts(path: string, answer: () => Response) {
  const posts: { contentType: string | null; returnRedirect: string | null; fields: Record<string, string> }[] = [];
  server.use(
    http.post(path, async ({ request }) => {
      posts.push({
        contentType: request.headers.get('Content-Type'),
        returnRedirect: request.headers.get('X-Auth-Return-Redirect'),
        fields: Object.fromEntries(new URLSearchParams(await request.text())),
      });
      return answer();
    }),
  );
  return posts;
}

let assign: ReturnType<typeof vi.fn<(url: string) => void>>;
beforeEach(() => {
  signOutEverywhere();
  assign = vi.fn<(url: string) => void>();
  vi.spyOn(browserLocation, 'assign').mockImplementation(assign);
});

describe('sign-in page', () => {
  it('welcomes a first visit to the home page instead of calling it an error', async () => {
    renderApp('/signin?error=SessionRequired&callbackUrl=%2Flibrary');

    expect(await screen.findByRole('heading', { level: 2, name: 'Sign in' })).toBeInTheDocument();
    expect(screen.getByText(/^Welcome! Sign in to see your team’s assignments/)).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByText('Please sign in to continue.')).not.toBeInTheDocument();
  });

  it('asks the user to sign in when a page needed a session', async () => {
    renderApp('/signin?error=SessionRequired&callbackUrl=%2Fteam');

    expect(await screen.findByRole('heading', { level: 1, name: 'Markwell' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Sign in' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Please sign in to continue.');
    expect(document.title).toBe('Sign in · Markwell');
  });

  it.each([
    ['AccountNotLinkedError', 'This email is already linked to another sign-in method. Sign in the way you did before.'],
    ['OAuthAccountNotLinked', 'This email is already linked to another sign-in method. Sign in the way you did before.'],
    ['OAuthSignin', "We couldn't start sign-in with your school account. Please try again."],
    ['OAuthCallback', 'Your school account could not complete the sign-in. Please try again.'],
    ['OAuthCallbackError', 'Your school account could not complete the sign-in. Please try again.'],
    ['OAuthCreateAccount', "We couldn't create your Markwell account. Please try again, or ask your Markwell administrator."],
    ['Callback', 'Something went wrong while finishing sign-in. Please try again.'],
    ['CredentialsSignin', 'Sign-in failed. Check your name and email and try again.'],
    ['AccessDenied', "You don't have permission to sign in to Markwell."],
    ['Configuration', "Sign-in isn't set up correctly on this server. Please tell your Markwell administrator."],
    ['MissingSecret', "Sign-in isn't set up correctly on this server. Please tell your Markwell administrator."],
    ['MissingAuthorize', "Sign-in isn't set up correctly on this server. Please tell your Markwell administrator."],
    ['MissingAdapter', "Sign-in isn't set up correctly on this server. Please tell your Markwell administrator."],
    ['MissingAdapterMethods', "Sign-in isn't set up correctly on this server. Please tell your Markwell administrator."],
    ['UnsupportedStrategy', "Sign-in isn't set up correctly on this server. Please tell your Markwell administrator."],
    ['MissingAPIRoute', "Sign-in isn't set up correctly on this server. Please tell your Markwell administrator."],
    ['InvalidCallbackUrl', "The sign-in link pointed somewhere Markwell can't send you. Please sign in from this page."],
    ['SomethingNew', 'Sign-in failed. Please try again.'],
  ])('explains the error %s', async (error, message) => {
    renderApp(`/signin?error=${error}`);

    expect(await screen.findByRole('alert')).toHaveTextContent(message);
  });

  it('shows no error without one', async () => {
    renderApp('/signin');

    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    await screen.findByRole('form', { name: 'Development sign-in' });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the Google button only when Google is configured', async () => {
    withProviders(GOOGLE, CREDENTIALS);
    const { unmount } = renderApp('/signin');
    expect(await screen.findByRole('button', { name: 'Sign in with Google' })).toBeInTheDocument();
    unmount();

    withProviders(CREDENTIALS);
    renderApp('/signin');
    await screen.findByRole('form', { name: 'Development sign-in' });
    expect(screen.queryByRole('button', { name: 'Sign in with Google' })).not.toBeInTheDocument();
  });

  it('shows a button for the OIDC issuer under its name', async () => {
    withProviders(OIDC);
    renderApp('/signin');

    expect(await screen.findByRole('button', { name: 'Sign in with Keycloak' })).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Development sign-in' })).not.toBeInTheDocument();
  });

  it('shows the development form, with its warning, only when the credentials provider exists', async () => {
    withProviders(GOOGLE, CREDENTIALS);
    const { unmount } = renderApp('/signin');
    const form = await screen.findByRole('form', { name: 'Development sign-in' });
    expect(within(form).getByRole('textbox', { name: /name/i })).toBeInTheDocument();
    expect(within(form).getByRole('textbox', { name: /email/i })).toBeInTheDocument();
    expect(form).toHaveAccessibleDescription('Development sign-in — no password. Turn off in production.');
    unmount();

    withProviders(GOOGLE);
    renderApp('/signin');
    await screen.findByRole('button', { name: 'Sign in with Google' });
    expect(screen.queryByRole('form', { name: 'Development sign-in' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
  });

  it('says sign-in is unavailable when the providers cannot be fetched, and retries', async () => {
    const user = userEvent.setup();
    server.use(http.get('/api/auth/providers', () => HttpResponse.json({}, { status: 500 })));
    renderApp('/signin?callbackUrl=%2Fteam');

    expect(await screen.findByRole('alert')).toHaveTextContent('Sign-in is unavailable right now.');

    withProviders(GOOGLE);
    await user.click(screen.getByRole('button', { name: 'Try again' }));

    expect(await screen.findByRole('button', { name: 'Sign in with Google' })).toBeInTheDocument();
    expect(screen.queryByText('Sign-in is unavailable right now.')).not.toBeInTheDocument();
  });

  it('signs in with the development form: a form-encoded post, then the returned address', async () => {
    const user = userEvent.setup();
    const posts = recordPosts('/api/auth/callback/credentials', () =>
      HttpResponse.json({ url: 'http://localhost:3000/team' }),
    );
    const otherTab = new BroadcastChannel(SESSION_CHANNEL);
    const broadcast = vi.fn();
    otherTab.onmessage = (event: MessageEvent) => broadcast(event.data);
    renderApp('/signin?error=SessionRequired&callbackUrl=%2Fteam');

    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Ada Lovelace');
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'ada@school.org{Enter}');

    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost:3000/team'));
    expect(posts).toEqual([
      {
        contentType: 'application/x-www-form-urlencoded',
        returnRedirect: '1',
        fields: { name: 'Ada Lovelace', email: 'ada@school.org', csrfToken: TEST_CSRF_TOKEN, callbackUrl: '/team', json: 'true' },
      },
    ]);
    await waitFor(() => expect(broadcast).toHaveBeenCalledWith(expect.objectContaining({ trigger: 'signin' })));
    otherTab.close();
  });

  it('shows a pending state while signing in', async () => {
    const user = userEvent.setup();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.post('/api/auth/callback/credentials', async () => {
        await gate;
        return HttpResponse.json({ url: 'http://localhost:3000/library' });
      }),
    );
    renderApp('/signin');

    await user.type(await screen.findByRole('textbox', { name: /name/i }), 'Ada');
    await user.type(screen.getByRole('textbox', { name: /email/i }), 'ada@school.org');
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    expect(await screen.findByRole('button', { name: /signing in/i })).toBeDisabled();
    release();
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost:3000/library'));
  });

  it('requires a name and a valid email before posting anything', async () => {
    const user = userEvent.setup();
    const posts = recordPosts('/api/auth/callback/credentials', () => HttpResponse.json({ url: '/library' }));
    renderApp('/signin');

    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    expect(screen.getByText('Enter your name.')).toBeInTheDocument();
    expect(screen.getByText('Enter your email address.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /name/i })).toHaveFocus();

    await user.type(screen.getByRole('textbox', { name: /name/i }), 'Ada');
    await user.type(screen.getByRole('textbox', { name: /email/i }), 'not-an-email{Enter}');
    expect(screen.getByText('Enter a valid email address, like name@school.org.')).toBeInTheDocument();
    expect(screen.queryByText('Enter your name.')).not.toBeInTheDocument();

    expect(posts).toEqual([]);
    expect(assign).not.toHaveBeenCalled();
  });

  it('shows the CredentialsSignin message when the development sign-in is refused', async () => {
    const user = userEvent.setup();
    server.use(
      http.post('/api/auth/callback/credentials', () =>
        HttpResponse.json(
          { url: 'http://localhost:3000/signin?error=CredentialsSignin&provider=credentials' },
          { status: 401 },
        ),
      ),
    );
    const { router } = renderApp('/signin?callbackUrl=%2Fteam');

    await user.type(await screen.findByRole('textbox', { name: /name/i }), 'Ada');
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'ada@school.org{Enter}');

    expect(await screen.findByRole('alert')).toHaveTextContent('Sign-in failed. Check your name and email and try again.');
    expect(currentPath(router)).toBe('/signin?callbackUrl=%2Fteam&error=CredentialsSignin');
    expect(assign).not.toHaveBeenCalled();
  });

  it('starts Google sign-in and goes to the address the server returns', async () => {
    const user = userEvent.setup();
    withProviders(GOOGLE, CREDENTIALS);
    const posts = recordPosts('/api/auth/signin/google', () =>
      HttpResponse.json({ url: 'https://accounts.google.com/o/oauth2/v2/auth?client_id=x' }),
    );
    renderApp('/signin?callbackUrl=%2Finvite%2Fabc');

    await user.click(await screen.findByRole('button', { name: 'Sign in with Google' }));

    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://accounts.google.com/o/oauth2/v2/auth?client_id=x'));
    expect(posts).toEqual([
      {
        contentType: 'application/x-www-form-urlencoded',
        returnRedirect: '1',
        fields: { csrfToken: TEST_CSRF_TOKEN, callbackUrl: '/invite/abc', json: 'true' },
      },
    ]);
  });

  it('passes only a same-origin callback URL on', async () => {
    const user = userEvent.setup();
    withProviders(OIDC);
    const posts = recordPosts('/api/auth/signin/oidc', () => HttpResponse.json({ url: 'https://idp.example/auth' }));
    renderApp('/signin?callbackUrl=https%3A%2F%2Fevil.example%2F');

    await user.click(await screen.findByRole('button', { name: 'Sign in with Keycloak' }));

    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://idp.example/auth'));
    expect(posts[0].fields.callbackUrl).toBe('/library');
  });

  it('sends a signed-in visitor straight to the callback URL', async () => {
    server.resetHandlers();
    const { router } = renderApp('/signin?callbackUrl=%2Fteam');

    expect(await screen.findByRole('heading', { name: 'Team' })).toBeInTheDocument();
    expect(currentPath(router)).toBe('/team');
  });

  it('sends a signed-in visitor with a foreign callback URL to the library', async () => {
    server.resetHandlers();
    const { router } = renderApp('/signin?callbackUrl=%2F%2Fevil.example%2Fteam');

    expect(await screen.findByRole('heading', { name: 'Library' })).toBeInTheDocument();
    expect(currentPath(router)).toBe('/library');
  });
});
