import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { SESSION_QUERY_KEY } from '../features/auth/api/get-session';
import { assignmentKeys } from '../features/assignments/api/keys';
import { rowsKey } from '../features/submissions/api/get-submission-rows';
import { clearCsrfToken, PAGE_CSRF_META } from '../lib/api-client';
import { createQueryClient } from '../lib/query-client';
import { libraryKeys } from '../lib/query-keys';
import { sessionHandler } from '../testing/handlers';
import { server } from '../testing/server';
import { HOLD_DRAW_MS, startFirstReads } from './first-reads';

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

/**
 * Answers the assignment page's first reads: the session after `sessionMs` (a signed-in teacher),
 * the light assignment after `assignmentMs`, and the table's page after `rowsMs`, noting each asked
 * path ("ask …") and each answer ("answer session", "answer assignment", "answer rows") in `events`. Returns the rows' last body.
 */
function answerAssignmentPage(events: string[], { sessionMs, assignmentMs = 0, rowsMs = 0 }: { sessionMs: number; assignmentMs?: number; rowsMs?: number }) {
  const asked: { rowsBody: unknown; tokens: (string | null)[] } = { rowsBody: null, tokens: [] };
  server.events.on('request:start', ({ request }) => {
    events.push(`ask ${new URL(request.url).pathname}`);
    if (request.method === 'POST') asked.tokens.push(request.headers.get('X-CSRF-Token'));
  });
  server.use(
    http.get('/api/auth/session', async () => {
      await delay(sessionMs);
      events.push('answer session');
      return HttpResponse.json({ user: { name: 'Ada', email: 'ada@school.test' }, expires: '2099-01-01T00:00:00Z' });
    }),
    http.post('/api/v1/db/assignment/get', async () => {
      await delay(assignmentMs);
      events.push('answer assignment');
      return HttpResponse.json({ data: { assignment: { _id: 'a1', name: 'Year 9 essay', type: 'grade', submissions: [] }, functionResults: [], submissions: [], partial: true } });
    }),
    http.post('/api/v1/db/assignment/submission-rows', async ({ request }) => {
      asked.rowsBody = await request.json();
      await delay(rowsMs);
      events.push('answer rows');
      return HttpResponse.json({ data: { rows: [], total: 0, counts: {}, classSize: 0, version: 'v1' } });
    }),
  );
  return asked;
}

/**
 * Makes the document look served to a signed-in browser: any token cached earlier is forgotten (as
 * at a sign-in) and the page carries `token` in its CSRF `<meta>`. Returns the element, to remove.
 */
function serveSignedIn(token: string): HTMLMetaElement {
  clearCsrfToken();
  const meta = document.createElement('meta');
  meta.name = PAGE_CSRF_META;
  meta.content = token;
  document.head.append(meta);
  return meta;
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

  it("on an assignment's page, asks for the assignment and the table's page the URL names side by side, under the table's key", async () => {
    clearCsrfToken();
    const events: string[] = [];
    const asked = answerAssignmentPage(events, { sessionMs: 30, assignmentMs: 60 });
    const client = createQueryClient();
    const drawable = startFirstReads(client, '/assignment/a1', '?sort=student&order=desc&per=25&page=3');
    // The key the table reads the same URL under (SubmissionsList's useTableParams).
    const tableKey = rowsKey(assignmentKeys.detail('a1'), { sort: 'student', order: 'desc', status: 'all', search: '', limit: 25, offset: 50 });
    // When the app may first draw, the session is known and the page's reads are under way (not
    // queued behind the draw).
    await drawable;
    expect(client.getQueryState(tableKey), "the table's page is asked before the first draw").toBeDefined();
    expect(client.getQueryState([...assignmentKeys.detail('a1'), 'page'])).toBeDefined();
    await expect.poll(() => client.getQueryData(tableKey)).toBeTruthy();
    await expect.poll(() => client.getQueryData([...assignmentKeys.detail('a1'), 'page'])).toBeTruthy();
    expect(asked.rowsBody).toEqual({ assignmentId: 'a1', sort: 'student', order: 'desc', status: 'all', search: '', limit: 25, offset: 50 });
    expect(events.indexOf('ask /api/auth/csrf'), 'the CSRF token is asked beside the session').toBeLessThan(events.indexOf('answer session'));
    expect(events.indexOf('ask /api/v1/db/assignment/submission-rows'), "the rows do not wait for the assignment's answer").toBeLessThan(
      events.indexOf('answer assignment'),
    );
    server.events.removeAllListeners();
  });

  it('on a page served signed in, sends the page\'s reads before the session answers, with the token the page came with', async () => {
    const token = 'a'.repeat(64);
    const meta = serveSignedIn(token);
    try {
      const events: string[] = [];
      const asked = answerAssignmentPage(events, { sessionMs: 50 });
      await startFirstReads(createQueryClient(), '/assignment/a1', '');
      await expect.poll(() => asked.tokens.length).toBe(2);
      expect(events.indexOf('ask /api/v1/db/assignment/submission-rows'), 'the rows do not wait for the session').toBeLessThan(events.indexOf('answer session'));
      expect(events.indexOf('ask /api/v1/db/assignment/get')).toBeLessThan(events.indexOf('answer session'));
      expect(asked.tokens).toEqual([token, token]);
      expect(events, 'no round trip for a token').not.toContain('ask /api/auth/csrf');
    } finally {
      meta.remove();
      server.events.removeAllListeners();
    }
  });

  it("on an assignment's page served signed in, the first draw waits for the table's rows, but not past HOLD_DRAW_MS", async () => {
    let meta = serveSignedIn('b'.repeat(64));
    try {
      // Rows that answer soon: drawn with the page, in one draw.
      const events: string[] = [];
      answerAssignmentPage(events, { sessionMs: 10, assignmentMs: 20, rowsMs: 150 });
      await startFirstReads(createQueryClient(), '/assignment/a1', '');
      expect(events).toContain('answer rows');
      expect(events).toContain('answer assignment');
      server.events.removeAllListeners();

      // Rows that take too long: the page is drawn without them.
      meta = serveSignedIn('b'.repeat(64));
      const slow: string[] = [];
      answerAssignmentPage(slow, { sessionMs: 10, rowsMs: HOLD_DRAW_MS + 600 });
      await startFirstReads(createQueryClient(), '/assignment/a1', '');
      expect(slow).toContain('answer session');
      expect(slow).not.toContain('answer rows');
    } finally {
      meta.remove();
      server.events.removeAllListeners();
    }
  });
});
