import { renderHook, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../../../lib/query-client';
import { server } from '../../../testing/server';
import { useSubmissionRows, type RowsParams } from './get-submission-rows';

const KEY = ['assignments', 'detail', 'a1'] as const;
const PARAMS: RowsParams = { offset: 0, limit: 25, sort: 'submitted', order: 'asc', status: 'all', search: '' };

/** A class being graded: every read says something is in progress. */
function gradingClass() {
  let reads = 0;
  server.use(
    http.post('/api/v1/db/assignment/submission-rows', () => {
      reads++;
      return HttpResponse.json({
        data: { rows: [], total: 0, counts: {}, classSize: 30, inProgress: true, outdatedIds: [], version: `v${reads}` },
      });
    }),
  );
  return { reads: () => reads };
}

function withClient() {
  const client = createQueryClient();
  return function Wrapper({ children }: { children: ReactNode }) {
    return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  };
}

const pause = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

describe('the table of a class the page reads whole', () => {
  it('is read again when the page’s read of the class moves, not on a timer of its own', async () => {
    const backend = gradingClass();
    const { rerender } = renderHook(({ version }) => useSubmissionRows('a1', KEY, PARAMS, version), {
      wrapper: withClient(),
      initialProps: { version: '100' },
    });
    await waitFor(() => expect(backend.reads()).toBe(1));
    await pause(2600); // longer than the 2 s poll of a table on its own
    expect(backend.reads()).toBe(1);

    rerender({ version: '101' });
    await waitFor(() => expect(backend.reads()).toBe(2));
  });

  it('polls every 2 s by itself while grading runs when the page reads only part of the class', async () => {
    const backend = gradingClass();
    renderHook(() => useSubmissionRows('a1', KEY, PARAMS), { wrapper: withClient() });
    await waitFor(() => expect(backend.reads()).toBe(1));
    await waitFor(() => expect(backend.reads()).toBeGreaterThanOrEqual(2), { timeout: 4000 });
  });
});
