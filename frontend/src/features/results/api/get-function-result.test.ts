import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { forgetRevalidated } from '../../../lib/revalidated-query';
import { createQueryClient } from '../../../lib/query-client';
import { server } from '../../../testing/server';
import { functionResultQueryOptions } from './get-function-result';

beforeEach(() => forgetRevalidated());

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
