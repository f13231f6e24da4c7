import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { TEST_CSRF_TOKEN } from '../testing/handlers';
import { server } from '../testing/server';
import { api, ApiError, errorMessage } from './api-client';

describe('api client', () => {
  it('resolves to the inner data field on success', async () => {
    server.use(http.get('/api/v1/db/user/get', () => HttpResponse.json({ data: { user: { team: 't1' } } })));

    await expect(api.get('/api/v1/db/user/get')).resolves.toEqual({ user: { team: 't1' } });
  });

  it('rejects with the error body on a 4xx', async () => {
    const body = { error: { code: 'invalid', message: 'Please fill in all required fields' } };
    server.use(http.post('/api/v1/db/assistant/put', () => HttpResponse.json(body, { status: 400 })));

    const error = await api.post('/api/v1/db/assistant/put', { title: '' }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, body, message: 'Please fill in all required fields', code: 'invalid' });
  });

  it('rejects with an empty body when a 500 is not JSON', async () => {
    server.use(http.put('/api/v1/db/chat/put', () => new HttpResponse('<h1>Bad gateway</h1>', { status: 500 })));

    const error = await api.put('/api/v1/db/chat/put', {}).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 500, body: {} });
  });

  it('sends the CSRF token and a JSON body on POST, fetching the token once', async () => {
    let csrfFetches = 0;
    const seen: { token: string | null; contentType: string | null; body: unknown }[] = [];
    server.use(
      http.get('/api/auth/csrf', () => {
        csrfFetches += 1;
        return HttpResponse.json({ csrfToken: TEST_CSRF_TOKEN });
      }),
      http.post('/api/v1/db/team/create-folder', async ({ request }) => {
        seen.push({
          token: request.headers.get('X-CSRF-Token'),
          contentType: request.headers.get('Content-Type'),
          body: await request.json(),
        });
        return HttpResponse.json({ data: { ok: true } });
      }),
    );

    await api.post('/api/v1/db/team/create-folder', { teamId: 't1', folderName: 'Year 9' });
    await api.post('/api/v1/db/team/create-folder', { teamId: 't1', folderName: 'Year 10' });

    expect(seen).toEqual([
      { token: TEST_CSRF_TOKEN, contentType: 'application/json', body: { teamId: 't1', folderName: 'Year 9' } },
      { token: TEST_CSRF_TOKEN, contentType: 'application/json', body: { teamId: 't1', folderName: 'Year 10' } },
    ]);
    expect(csrfFetches).toBe(1);
  });

  it('fetches a fresh CSRF token and retries once when the server refuses a stale one', async () => {
    let tokens = 0;
    const seen: (string | null)[] = [];
    server.use(
      http.get('/api/auth/csrf', () => HttpResponse.json({ csrfToken: `token-${++tokens}` })),
      http.post('/api/v1/db/rubric/put', ({ request }) => {
        const sent = request.headers.get('X-CSRF-Token');
        seen.push(sent);
        if (sent !== 'token-2') {
          return HttpResponse.json({ error: { code: 'forbidden', message: 'Invalid CSRF token' } }, { status: 403 });
        }
        return HttpResponse.json({ data: { ok: true } });
      }),
    );

    await expect(api.post('/api/v1/db/rubric/put', {})).resolves.toEqual({ ok: true });
    expect(seen).toEqual(['token-1', 'token-2']);
  });

  it('gives up after one retry when the CSRF token keeps being refused', async () => {
    let posts = 0;
    server.use(
      http.post('/api/v1/db/rubric/put', () => {
        posts++;
        return HttpResponse.json({ error: { code: 'forbidden', message: 'Invalid CSRF token' } }, { status: 403 });
      }),
    );

    const error = await api.post('/api/v1/db/rubric/put', {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 403 });
    expect(posts).toBe(2);
  });

  it('sends no CSRF header on GET', async () => {
    let token: string | null = 'unset';
    server.use(
      http.get('/api/v1/db/user/get', ({ request }) => {
        token = request.headers.get('X-CSRF-Token');
        return HttpResponse.json({ data: null });
      }),
    );

    await api.get('/api/v1/db/user/get');

    expect(token).toBeNull();
  });

  it('sends the request without a CSRF header when the token cannot be fetched', async () => {
    let token: string | null = 'unset';
    server.use(
      http.get('/api/auth/csrf', () => HttpResponse.error()),
      http.post('/api/v1/db/rubric/put', ({ request }) => {
        token = request.headers.get('X-CSRF-Token');
        return HttpResponse.json({ data: { id: 'r1' } });
      }),
    );

    await expect(api.post('/api/v1/db/rubric/put', { name: 'New Rubric Title' })).resolves.toEqual({ id: 'r1' });
    expect(token).toBeNull();
  });

  it('rejects with status 0 and an empty body when the network fails', async () => {
    server.use(http.get('/api/v1/db/user/get', () => HttpResponse.error()));

    await expect(api.get('/api/v1/db/user/get')).rejects.toMatchObject({ status: 0, body: {} });
  });

  it('getRaw resolves to the whole body of an endpoint without the data envelope', async () => {
    server.use(http.get('/api/auth/session', () => HttpResponse.json({ user: { id: 'u1' }, expires: 'soon' })));

    await expect(api.getRaw('/api/auth/session')).resolves.toEqual({ user: { id: 'u1' }, expires: 'soon' });
  });

  it('postForm sends form-encoded fields with the CSRF and extra headers, and resolves to the whole body', async () => {
    let seen: { contentType: string | null; token: string | null; redirect: string | null; body: string } | undefined;
    server.use(
      http.post('/api/auth/signout', async ({ request }) => {
        seen = {
          contentType: request.headers.get('Content-Type'),
          token: request.headers.get('X-CSRF-Token'),
          redirect: request.headers.get('X-Auth-Return-Redirect'),
          body: await request.text(),
        };
        return HttpResponse.json({ url: '/signin' });
      }),
    );

    const body = await api.postForm('/api/auth/signout', { csrfToken: 'abc', callbackUrl: '/signin?x=1 2', json: 'true' }, {
      headers: { 'X-Auth-Return-Redirect': '1' },
    });

    expect(body).toEqual({ url: '/signin' });
    expect(seen).toEqual({
      contentType: 'application/x-www-form-urlencoded',
      token: TEST_CSRF_TOKEN,
      redirect: '1',
      body: 'csrfToken=abc&callbackUrl=%2Fsignin%3Fx%3D1+2&json=true',
    });
  });

  it("errorMessage prefers the server's message and falls back otherwise", () => {
    const withMessage = new ApiError(400, { error: { code: 'invalid', message: 'This email has already been invited.' } });
    expect(errorMessage(withMessage, 'Fallback')).toBe('This email has already been invited.');
    expect(errorMessage(new ApiError(500, {}), 'Fallback')).toBe('Fallback');
    expect(errorMessage(new Error('boom'), 'Fallback')).toBe('Fallback');
  });
});
