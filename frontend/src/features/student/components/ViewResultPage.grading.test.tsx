import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { renderRoutes } from '../../../testing/render-routes';
import { server } from '../../../testing/server';
import { createStudentRoutes } from '../routes';
import { apiError, submission } from '../testing/fixtures';

const PATH = '/student/view-result/a1/s1';

interface Backend {
  results: unknown[];
  gradeOne: unknown[];
  functions: unknown[];
}

/**
 * A student's tab holding view token `vt-1` for s1 (read, text "My essay."), an assignment of
 * `type`, and a result answering each of `statuses` in turn (the last repeats). Renders the
 * student pages with a result view that names what it was given.
 */
function setup({
  type = 'prompt',
  instant = false,
  statuses,
  graded = { status: 'grading' },
}: {
  type?: string;
  instant?: boolean;
  statuses: string[];
  /** What gradeOnePub answers. */
  graded?: { status: string; message?: string };
}) {
  sessionStorage.setItem('markwell.viewToken.s1', 'vt-1');
  const seen: Backend = { results: [], gradeOne: [], functions: [] };
  server.use(
    http.post('/api/v1/db/submission/get-view-only', () => HttpResponse.json({ data: { submission: submission() } })),
    http.post('/api/v1/db/assignment/get-view-only', () =>
      HttpResponse.json({ data: { assignment: { _id: 'a1', name: 'Persuasive essay', type, provideInstantFeedback: instant } } }),
    ),
    http.post('/api/v1/db/functionResult/get-view-only', async ({ request }) => {
      seen.results.push(await request.json());
      const status = statuses[Math.min(seen.results.length - 1, statuses.length - 1)];
      // As the server answers a view token: the status only until the result is finished.
      const functionResult = status === 'graded' ? { status, feedback: 'Well argued.', updatedAt: '2026-03-01T10:00:00Z' } : { status };
      return HttpResponse.json({ data: { functionResult } });
    }),
    http.post('/api/v1/lambda/gradeOnePub', async ({ request }) => {
      seen.gradeOne.push(await request.json());
      return HttpResponse.json({ data: graded });
    }),
    http.post('/api/v1/db/function/get-view-only', async ({ request }) => {
      const body = (await request.json()) as { viewToken?: string };
      seen.functions.push(body);
      if (body.viewToken !== 'vt-1') return apiError(404, 'not_found', 'Not found');
      // A prompt assignment's definition as a student reads it: its type, never the prompt.
      return HttpResponse.json({ data: { function: { type: 'prompt' } } });
    }),
  );
  const routes = createStudentRoutes({
    renderResult: (view) => (
      <p>{`Result view: ${view.type}, ${String(view.result.status)}, “${String(view.result.feedback)}”, definition ${String(view.fn.type)}, text ${view.text}`}</p>
    ),
  });
  renderRoutes(routes, { initialEntries: [PATH] });
  return seen;
}

afterEach(() => sessionStorage.clear());

describe('student result page: grading', () => {
  it('starts instant feedback, waits while the work is graded, then shows the result', async () => {
    const seen = setup({ instant: true, statuses: ['', 'grading', 'graded'] });

    expect(await screen.findByText('Your work is being graded…')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Grading your work' })).toBeInTheDocument();

    // Polled every 3 s until graded.
    expect(
      await screen.findByText('Result view: prompt, graded, “Well argued.”, definition prompt, text My essay.', {}, { timeout: 8000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Your feedback' })).toBeInTheDocument();
    expect(seen.gradeOne).toEqual([{ submissionId: 's1', processName: 'PromptProcess', assignmentId: 'a1', viewToken: 'vt-1' }]);
    expect(seen.results[0]).toEqual({ assignmentId: 'a1', submissionId: 's1', viewToken: 'vt-1' });
    expect(seen.functions).toEqual([{ assignmentId: 'a1', type: 'prompt', viewToken: 'vt-1' }]);

    // Graded: no more asking.
    const calls = seen.results.length;
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(seen.results).toHaveLength(calls);
    expect(seen.gradeOne).toHaveLength(1);
  }, 20_000);

  it('does not start grading without instant feedback: the work waits for the teacher', async () => {
    const seen = setup({ statuses: [''] });

    expect(await screen.findByText('Your work was received. Your feedback will appear on this page once your teacher releases it.')).toBeInTheDocument();
    expect(screen.queryByText(/when your teacher's AI grading runs/)).not.toBeInTheDocument();
    expect(screen.getByText('My essay.')).toBeInTheDocument();
    expect(seen.gradeOne).toEqual([]);
  });

  it('says so when instant feedback waits for the teacher (the AI budget is spent), and shows the work', async () => {
    const message =
      'Your work is saved. Instant feedback is not available right now, so your teacher will grade your work, and your feedback will appear on this page then.';
    const seen = setup({ instant: true, statuses: [''], graded: { status: 'ready-to-grade', message } });

    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByText('My essay.')).toBeInTheDocument();
    expect(screen.queryByText(/when your teacher's AI grading runs/)).not.toBeInTheDocument();
    expect(seen.gradeOne).toHaveLength(1);
  });

  it('shows a result the teacher graded', async () => {
    setup({ statuses: ['graded'] });
    expect(await screen.findByText(/^Result view: prompt, graded/)).toBeInTheDocument();
  });

  it('says kindly when grading failed, and still shows the work', async () => {
    setup({ instant: true, statuses: ['failed'] });

    expect(await screen.findByText("Your feedback isn't ready")).toBeInTheDocument();
    expect(screen.getByText(/Your work is safe: your teacher has it and can grade it again\./)).toBeInTheDocument();
    expect(screen.getByText('My essay.')).toBeInTheDocument();
    expect(screen.queryByText(/timed out/)).not.toBeInTheDocument();
    expect(screen.queryByText(/^Result view/)).not.toBeInTheDocument();
  });
});
