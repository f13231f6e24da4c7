import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { SESSION_QUERY_KEY } from '../features/auth/api/get-session';
import { createQueryClient } from '../lib/query-client';
import { libraryKeys } from '../lib/query-keys';
import { sessionHandler } from '../testing/handlers';
import { server } from '../testing/server';
import { startFirstReads } from './first-reads';

/** Records the API paths the test's reads ask for, answering the library's read. */
function recordReads(): string[] {
  const asked: string[] = [];
  server.events.on('request:start', ({ request }) => {
    asked.push(new URL(request.url).pathname);
  });
  server.use(
    http.get('/api/v1/db/library/get', () =>
      HttpResponse.json({ data: { assignments: [{ _id: 'a1', name: 'Essay 1' }], rubrics: [], folders: [] } }),
    ),
  );
  return asked;
}

describe('startFirstReads', () => {
  it("starts the session, the settings and the library's read under the keys the pages use", async () => {
    const asked = recordReads();
    const client = createQueryClient();
    const barRead = startFirstReads(client, '/library');
    // What the app bar draws (the demo-mode banner's settings) is read once it settles.
    await barRead;
    expect(client.getQueryData(['app-config'])).toEqual({ demoModel: false });
    await expect.poll(() => client.getQueryData(libraryKeys.all)).toBeTruthy();
    expect(asked).toEqual(expect.arrayContaining(['/api/auth/session', '/api/v1/app-config', '/api/v1/db/library/get']));
    expect(client.getQueryData(['app-config'])).toEqual({ demoModel: false });
    server.events.removeAllListeners();
  });

  it('settles even when the settings cannot be read, so the app still draws', async () => {
    server.use(http.get('/api/v1/app-config', () => HttpResponse.json({ error: 'down' }, { status: 500 })));
    const client = createQueryClient();
    await expect(startFirstReads(client, '/rubrics')).resolves.toBeUndefined();
    expect(client.getQueryState(['app-config'])?.status).toBe('error');
  });

  it("reads no team data when signed out, and nothing but the session on a student's page", async () => {
    server.use(sessionHandler(null));
    const asked = recordReads();
    const client = createQueryClient();
    startFirstReads(client, '/library');
    startFirstReads(createQueryClient(), '/submit/tok');
    await expect.poll(() => client.getQueryData(['app-config'])).toBeTruthy();
    await expect.poll(() => client.getQueryState(SESSION_QUERY_KEY)?.status).toBe('success');
    await Promise.resolve();
    expect(asked).not.toContain('/api/v1/db/library/get');
    expect(asked.filter((p) => p === '/api/v1/app-config')).toHaveLength(1);
    server.events.removeAllListeners();
  });
});
