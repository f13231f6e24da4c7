import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '../../../testing/server';
import { renderApp, signOutEverywhere } from '../../../testing/test-utils';
import { apiError, submission } from '../testing/fixtures';

/**
 * A signed-out student on another device with a released link (rt-1, for s1 of a1). The server
 * answers like the real one: a release token opens the view-only reads without the ids, and
 * `result` is the view-only result it sends.
 */
function setup(result: Record<string, unknown>, live = true) {
  signOutEverywhere();
  const bodies: unknown[] = [];
  const ok = (body: { viewToken?: string }) => live && body.viewToken === 'rt-1';
  server.use(
    http.post('/api/v1/db/submission/get-view-only', async ({ request }) => {
      const body = (await request.json()) as { submissionId?: string; viewToken?: string };
      bodies.push(body);
      if (!ok(body) || (body.submissionId && body.submissionId !== 's1')) return apiError(404, 'not_found', 'Not found');
      return HttpResponse.json({ data: { submission: submission({ _id: 's1', status: 'ready', text: 'Rivers run to the sea.' }) } });
    }),
    http.post('/api/v1/db/assignment/get-view-only', async ({ request }) => {
      const body = (await request.json()) as { viewToken?: string };
      if (!ok(body)) return apiError(404, 'not_found', 'Not found');
      return HttpResponse.json({ data: { assignment: { _id: 'a1', name: 'Persuasive essay', type: 'prompt' } } });
    }),
    http.post('/api/v1/db/functionResult/get-view-only', async ({ request }) => {
      const body = (await request.json()) as { viewToken?: string; submissionId?: string };
      if (!ok(body) || body.submissionId !== 's1') return apiError(404, 'not_found', 'Not found');
      return HttpResponse.json({ data: { functionResult: result } });
    }),
    http.post('/api/v1/db/function/get-view-only', () => HttpResponse.json({ data: { function: { type: 'prompt' } } })),
  );
  renderApp('/results/rt-1');
  return { bodies };
}

describe('a released result link', () => {
  it('opens the student’s result from any device', async () => {
    const { bodies } = setup({ status: 'graded', released: true, feedback: 'A clear argument.' });
    expect(await screen.findByRole('heading', { name: 'Persuasive essay' })).toBeInTheDocument();
    expect(await screen.findByText('Rivers run to the sea.', { exact: false })).toBeInTheDocument();
    expect(screen.queryByText('Your teacher has not released your feedback yet.')).not.toBeInTheDocument();
    // First with the token alone, then with the ids the answers gave.
    expect(bodies[0]).toEqual({ viewToken: 'rt-1' });
    expect(bodies).toContainEqual({ submissionId: 's1', viewToken: 'rt-1' });
  });

  it('says so when the link was revoked or never existed', async () => {
    setup({ status: 'graded' }, false);
    expect(await screen.findByRole('heading', { name: 'This result link does not work.' })).toBeInTheDocument();
    expect(screen.getByText(/Ask your teacher for a new link/)).toBeInTheDocument();
  });

  it('says the feedback is not released yet when the server sends the status only', async () => {
    setup({ status: 'graded', released: false });
    expect(await screen.findByText('Your teacher has not released your feedback yet.')).toBeInTheDocument();
  });
});
