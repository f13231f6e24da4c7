import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { forgetRevalidated } from '../../../lib/revalidated-query';
import { createQueryClient } from '../../../lib/query-client';
import { server } from '../../../testing/server';
import { assignmentQueryOptions } from './get-assignment';

beforeEach(() => forgetRevalidated());

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
