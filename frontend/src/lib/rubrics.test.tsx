import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { server } from '../testing/server';
import { RUBRIC_LIST_QUERY_KEY, useRubricList } from './rubrics';

describe('the team rubric list', () => {
  it('gives every screen the same shape, with empty lists where the server sent null', async () => {
    server.use(
      http.get('/api/v1/db/rubric/list', () =>
        HttpResponse.json({
          data: {
            rubrics: [
              {
                _id: 'r1',
                name: 'Argument',
                createdAt: '2026-01-01T00:00:00Z',
                updatedAt: '2026-01-01T00:00:00Z',
                criteria: [{ criterionDescription: 'Claim', levelDescriptions: null, useRange: false }],
              },
            ],
          },
        }),
      ),
    );
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );

    const { result } = renderHook(() => useRubricList(), { wrapper });

    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data?.[0].criteria[0].levelDescriptions).toEqual([]);
    // The cache under the shared key holds that same normalised shape.
    expect(client.getQueryData(RUBRIC_LIST_QUERY_KEY)).toEqual(result.current.data);
  });
});
