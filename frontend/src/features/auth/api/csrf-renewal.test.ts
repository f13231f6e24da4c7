import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { api } from '../../../lib/api-client';
import { provider } from '../../../testing/handlers';
import { server } from '../../../testing/server';
import { signIn } from './sign-in';
import { signOut } from './sign-out';

const CREDENTIALS = provider('credentials', 'Development sign-in', 'credentials');
const WRITE = '/api/v1/db/team/create-folder';

function refused() {
  return HttpResponse.json({ error: { code: 'forbidden', message: 'Invalid CSRF token' } }, { status: 403 });
}

/** The token a request carries: the X-CSRF-Token header first, else the form's csrfToken. */
async function sentToken(request: Request): Promise<string | null> {
  return request.headers.get('X-CSRF-Token') ?? new URLSearchParams(await request.clone().text()).get('csrfToken');
}

/**
 * Markwell's CSRF rules in miniature: the browser holds one token, bound to its session (or to
 * none), which the server renews whenever a session begins or ends; a write carrying any other
 * token is refused with "Invalid CSRF token". `writes` records the token of every write attempt.
 */
function markwell({ signedIn = false } = {}) {
  let minted = 0;
  const state = { token: signedIn ? 'ada-0' : 'signed-out-0', writes: [] as (string | null)[] };
  const renew = (owner: string) => {
    minted += 1;
    state.token = `${owner}-${minted}`;
  };
  server.use(
    http.get('/api/auth/csrf', () => HttpResponse.json({ csrfToken: state.token })),
    http.post('/api/auth/callback/credentials', async ({ request }) => {
      if ((await sentToken(request)) !== state.token) return refused();
      renew('ada');
      return HttpResponse.json({ url: 'http://localhost:3000/library' });
    }),
    http.post('/api/auth/signout', async ({ request }) => {
      if ((await sentToken(request)) !== state.token) return refused();
      renew('signed-out');
      return HttpResponse.json({ url: 'http://localhost:3000/signin' });
    }),
    http.post(WRITE, async ({ request }) => {
      const token = await sentToken(request);
      state.writes.push(token);
      return token === state.token ? HttpResponse.json({ data: { ok: true } }) : refused();
    }),
  );
  return {
    state,
    /** Another tab of the same browser signs in (or out): the cookie, and so the token, changes. */
    sessionChangedElsewhere: () => renew('elsewhere'),
  };
}

function signInAsAda() {
  return signIn({
    provider: CREDENTIALS,
    callbackUrl: '/library',
    fields: { name: 'Ada Lovelace', email: 'ada@school.org' },
  });
}

describe('CSRF token renewal', () => {
  it('after signing in, the next write carries the renewed token without being refused first', async () => {
    const { state } = markwell();

    await expect(signInAsAda()).resolves.toMatchObject({ ok: true, url: 'http://localhost:3000/library' });
    await expect(api.post(WRITE, { teamId: 't1', folderName: 'Year 9' })).resolves.toEqual({ ok: true });

    expect(state.writes).toEqual(['ada-1']);
  });

  it('after signing out, the next write carries the renewed token without being refused first', async () => {
    const { state } = markwell({ signedIn: true });
    await api.post(WRITE, { teamId: 't1', folderName: 'Year 9' });

    await expect(signOut()).resolves.toEqual({ url: '/signin' });
    await expect(api.post(WRITE, { teamId: 't1', folderName: 'Year 10' })).resolves.toEqual({ ok: true });

    expect(state.writes).toEqual(['ada-0', 'signed-out-1']);
  });

  it('retries a write once with a fresh token when the session changed in another tab', async () => {
    const { state, sessionChangedElsewhere } = markwell();
    await api.post(WRITE, { teamId: 't1', folderName: 'Year 9' });

    sessionChangedElsewhere();
    await expect(api.post(WRITE, { teamId: 't1', folderName: 'Year 10' })).resolves.toEqual({ ok: true });

    expect(state.writes).toEqual(['signed-out-0', 'signed-out-0', 'elsewhere-1']);
  });

  it('still signs in when the cached token was renewed in another tab', async () => {
    const { sessionChangedElsewhere } = markwell();
    await api.post(WRITE, { teamId: 't1', folderName: 'Year 9' });

    sessionChangedElsewhere();

    await expect(signInAsAda()).resolves.toMatchObject({ ok: true, url: 'http://localhost:3000/library' });
  });
});
