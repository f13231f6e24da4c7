import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { assignmentQueryOptions } from '../features/assignments/api/get-assignment';
import { functionResultQueryOptions } from '../features/results/api/get-function-result';
import { server } from '../testing/server';
import { api, NOT_MODIFIED } from './api-client';
import { createQueryClient } from './query-client';
import { forgetRevalidated, mergeRows } from './revalidated-query';

beforeEach(() => forgetRevalidated());

describe('mergeRows', () => {
  const a = { _id: 'a', v: 1 };
  const b = { _id: 'b', v: 1 };
  const c = { _id: 'c', v: 1 };

  it('replaces rows by _id, appends new ones in the order sent and drops deleted ones', () => {
    const merged = mergeRows([a, b, c], [{ _id: 'b', v: 2 }, { _id: 'd', v: 1 }, { _id: 'e', v: 1 }], ['a']);
    expect(merged).toEqual([{ _id: 'b', v: 2 }, c, { _id: 'd', v: 1 }, { _id: 'e', v: 1 }]);
    expect(merged[1]).toBe(c);
  });

  it('keeps the previous list itself when nothing in it changed', () => {
    const previous = [a, b];
    expect(mergeRows(previous, [], [])).toBe(previous);
    expect(mergeRows(previous, [], ['gone-before'])).toBe(previous);
  });

  it('drops a row added and deleted since the version', () => {
    expect(mergeRows([a], [{ _id: 'x', v: 1 }], ['x'])).toEqual([a]);
  });
});

describe('a polled assignment', () => {
  const assignment = (name: string) => ({ _id: 'a1', name, type: 'feedback', submissions: ['s1', 's2'] });
  const full = {
    assignment: assignment('Essay'),
    functionResults: [
      { _id: 'r1', submission: 's1', status: 'graded' },
      { _id: 'r2', submission: 's2', status: 'grading' },
    ],
    submissions: [
      { _id: 's1', name: 'Ada', status: 'ready' },
      { _id: 's2', name: 'Bo', status: 'ready' },
    ],
    version: 'v1',
  };

  it('sends the version it holds, keeps the same data on a 304 and merges a delta', async () => {
    const seen: { ifNoneMatch: string | null; body: unknown }[] = [];
    const answers: (() => Response)[] = [
      () => HttpResponse.json({ data: full }),
      () => new HttpResponse(null, { status: 304, headers: { ETag: '"v1"' } }),
      () =>
        HttpResponse.json({
          data: {
            delta: true,
            assignment: { ...assignment('Essay'), submissions: ['s2', 's3'] },
            functionResults: [
              { _id: 'r2', submission: 's2', status: 'graded' },
              { _id: 'r3', submission: 's3', status: '' },
            ],
            submissions: [{ _id: 's3', name: 'Cy', status: 'queued' }],
            deletedSubmissionIds: ['s1'],
            deletedFunctionResultIds: ['r1'],
            version: 'v2',
          },
        }),
      () => HttpResponse.json({ data: { ...full, assignment: assignment('Essay 2'), version: 'v3' } }),
    ];
    server.use(
      http.post('/api/v1/db/assignment/get', async ({ request }) => {
        seen.push({ ifNoneMatch: request.headers.get('If-None-Match'), body: await request.json() });
        return answers[seen.length - 1]();
      }),
    );
    const client = createQueryClient();
    const read = () => client.fetchQuery({ ...assignmentQueryOptions('a1'), staleTime: 0 });

    const first = await read();
    expect(first.functionResults).toHaveLength(2);

    const unchanged = await read();
    expect(unchanged).toBe(first);
    expect(client.getQueryData(assignmentQueryOptions('a1').queryKey)).toBe(first);

    const merged = await read();
    expect(merged.assignment.submissions).toEqual(['s2', 's3']);
    expect(merged.functionResults).toEqual([
      { _id: 'r2', submission: 's2', status: 'graded' },
      { _id: 'r3', submission: 's3', status: '' },
    ]);
    expect(merged.submissions).toEqual([
      { _id: 's2', name: 'Bo', status: 'ready' },
      { _id: 's3', name: 'Cy', status: 'queued' },
    ]);

    const whole = await read();
    expect(whole.assignment.name).toBe('Essay 2');
    expect(whole.functionResults).toEqual(full.functionResults);

    expect(seen).toEqual([
      { ifNoneMatch: null, body: { assignmentId: 'a1' } },
      { ifNoneMatch: '"v1"', body: { assignmentId: 'a1', since: 'v1' } },
      { ifNoneMatch: '"v1"', body: { assignmentId: 'a1', since: 'v1' } },
      { ifNoneMatch: '"v2"', body: { assignmentId: 'a1', since: 'v2' } },
    ]);
  });

  it('sends no version after a sign-out forgot it', async () => {
    const seen: (string | null)[] = [];
    server.use(
      http.post('/api/v1/db/assignment/get', ({ request }) => {
        seen.push(request.headers.get('If-None-Match'));
        return HttpResponse.json({ data: full });
      }),
    );
    const client = createQueryClient();
    await client.fetchQuery({ ...assignmentQueryOptions('a1'), staleTime: 0 });
    forgetRevalidated();
    await client.fetchQuery({ ...assignmentQueryOptions('a1'), staleTime: 0 });
    expect(seen).toEqual([null, null]);
  });
});

describe('a polled result', () => {
  it('keeps the same result object on a 304', async () => {
    const seen: (string | null)[] = [];
    server.use(
      http.post('/api/v1/db/functionResult/get', ({ request }) => {
        seen.push(request.headers.get('If-None-Match'));
        if (seen.length > 1) return new HttpResponse(null, { status: 304 });
        return HttpResponse.json({ data: { functionResult: { _id: 'r1', submission: 's1', status: 'grading' }, version: 'v7' } });
      }),
    );
    const client = createQueryClient();
    const options = functionResultQueryOptions({ assignmentId: 'a1', submissionId: 's1' });
    const first = await client.fetchQuery({ ...options, staleTime: 0 });
    const second = await client.fetchQuery({ ...options, staleTime: 0 });
    expect(second).toBe(first);
    expect(seen).toEqual([null, '"v7"']);
  });
});

describe('the api client', () => {
  it('resolves a 304 to NOT_MODIFIED, not an error', async () => {
    server.use(http.post('/api/v1/db/assignment/get', () => new HttpResponse(null, { status: 304 })));
    await expect(api.post('/api/v1/db/assignment/get', {}, { headers: { 'If-None-Match': '"v1"' } })).resolves.toBe(NOT_MODIFIED);
  });
});
