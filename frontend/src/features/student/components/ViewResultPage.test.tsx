import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { server } from '../../../testing/server';
import { renderApp, signOutEverywhere } from '../../../testing/test-utils';
import type { StudentSubmission } from '../api/types';
import { apiError, submission } from '../testing/fixtures';

const PATH = '/student/view-result/a1/s1';

/**
 * A signed-out student whose tab holds `viewToken` for s1 (none when null). The view-only call
 * answers with each of `answers` in turn (the last one repeats) when the token is right, and 404
 * otherwise, like the server. Returns the request bodies it saw.
 */
function setup(viewToken: string | null, answers: StudentSubmission[]) {
  signOutEverywhere();
  if (viewToken) sessionStorage.setItem('markwell.viewToken.s1', viewToken);
  const bodies: unknown[] = [];
  let call = 0;
  server.use(
    http.post('/api/v1/db/submission/get-view-only', async ({ request }) => {
      const body = (await request.json()) as { submissionId: string; viewToken?: string };
      bodies.push(body);
      if (body.submissionId !== 's1' || body.viewToken !== 'vt-1') return apiError(404, 'not_found', 'Not found');
      const answer = answers[Math.min(call, answers.length - 1)];
      call += 1;
      return HttpResponse.json({ data: { submission: answer } });
    }),
    http.post('/api/v1/db/assignment/get-view-only', async ({ request }) => {
      const body = (await request.json()) as { assignmentId: string; viewToken?: string };
      if (body.assignmentId !== 'a1' || body.viewToken !== 'vt-1') return apiError(404, 'not_found', 'Not found');
      return HttpResponse.json({ data: { assignment: { _id: 'a1', name: 'Persuasive essay' } } });
    }),
    // Never graded: the teacher has not run the AI yet.
    http.post('/api/v1/db/functionResult/get-view-only', () => HttpResponse.json({ data: { functionResult: { _id: 'r1', status: '' } } })),
  );
  const rendered = renderApp(PATH);
  return { bodies, ...rendered };
}

afterEach(() => sessionStorage.clear());

describe('student result page', () => {
  it('waits while the work is read, then shows the text as plain text', async () => {
    const text = 'Dear reader,\n<b>Schools</b> should start later.';
    const { bodies } = setup('vt-1', [
      submission({ status: 'queued', text: '' }),
      submission({ status: 'ready', text, pageCount: 2 }),
    ]);

    expect(await screen.findByText('Your work is being read…')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Reading your work' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Persuasive essay' })).toBeInTheDocument();

    // Polled every 2 s until the work is read.
    const shown = await screen.findByText(/Schools<\/b> should start later\./, {}, { timeout: 5000 });
    expect(shown).toHaveTextContent('Dear reader, <b>Schools</b> should start later.');
    expect(shown.querySelector('b')).toBeNull();
    expect(screen.queryByText('Your work is being read…')).not.toBeInTheDocument();
    // No instant feedback: the feedback shows once the teacher releases it, not when the AI grades it.
    expect(screen.getByText('Your work was received. Your feedback will appear on this page once your teacher releases it.')).toBeInTheDocument();
    expect(screen.queryByText(/when your teacher's AI grading runs/)).not.toBeInTheDocument();
    expect(screen.getByText('essay.pdf · 2 pages')).toBeInTheDocument();
    expect(screen.getByText('Submitted by Sam Student')).toBeInTheDocument();
    expect(bodies[0]).toEqual({ submissionId: 's1', viewToken: 'vt-1' });
    // Once the work is read, the page stops asking.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(bodies).toHaveLength(2);
  }, 10_000);

  it('shows a warning the reader left', async () => {
    setup('vt-1', [submission({ error: 'No text found on 1 of 4 pages' })]);

    expect(await screen.findByText('My essay.')).toBeInTheDocument();
    expect(screen.getByText('No text found on 1 of 4 pages')).toBeInTheDocument();
  });

  it.each([
    ['This PDF is password-protected', 'This PDF is password-protected. Ask your teacher what to do next.'],
    ['This file cannot be read', 'This file cannot be read. Ask your teacher what to do next.'],
    ['This is not an image file', 'This is not an image file. Ask your teacher what to do next.'],
    ['Is this a scan?', 'Is this a scan? Ask your teacher what to do next.'],
    ['The file was cut short…', 'The file was cut short… Ask your teacher what to do next.'],
    ['', 'The file could not be read. Ask your teacher what to do next.'],
  ])('ends the reason %j with a full stop before "Ask your teacher"', async (reason, shown) => {
    setup('vt-1', [submission({ status: 'failed', text: '', error: reason })]);

    expect(await screen.findByText("We couldn't read your work")).toBeInTheDocument();
    expect(screen.getByText((_, el) => el?.classList.contains('MuiAlert-message') === true)).toHaveTextContent(
      `We couldn't read your work${shown}`,
    );
  });

  it('says why the work could not be read', async () => {
    setup('vt-1', [submission({ status: 'failed', text: '', error: 'This PDF is protected by a password.' })]);

    expect(await screen.findByText("We couldn't read your work")).toBeInTheDocument();
    expect(screen.getByText(/This PDF is protected by a password\./)).toBeInTheDocument();
  });

  it('says a result opens only in the tab it was submitted from when this tab has no token', async () => {
    const { bodies } = setup(null, [submission()]);

    expect(
      await screen.findByRole('heading', { name: 'This result opens only in the tab it was submitted from.' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/wait for your teacher to release it/)).toBeInTheDocument();
    expect(screen.queryByText(/not available on this device/)).not.toBeInTheDocument();
    expect(screen.queryByText('My essay.')).not.toBeInTheDocument();
    expect(bodies).toEqual([{ submissionId: 's1' }]);
  });

  it('says the result is not available when the token is refused', async () => {
    setup('someone-elses-token', [submission()]);

    expect(await screen.findByRole('heading', { name: 'This result is not available.' })).toBeInTheDocument();
    expect(screen.queryByText('My essay.')).not.toBeInTheDocument();
  });
});
