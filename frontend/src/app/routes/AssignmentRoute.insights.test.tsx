import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '../../testing/server';
import { renderApp } from '../../testing/test-utils';

const ID = 'a2222222-2222-4222-8222-222222222222';

function result(i: number, met: boolean[], isBenchmark: boolean) {
  return {
    _id: `r${i}`,
    submission: `s${i}`,
    status: 'reviewed',
    isBenchmark,
    totalPoints: met.filter(Boolean).length,
    maxPoints: 2,
    answers: [{ answerBoxesCoordinates: null, answerMedia: [], subanswers: [], grade: { points: 0, gradeAdjustment: 0, feedback: '', criteria: met } }],
  };
}

const REPORT = {
  benchmarks: 3,
  computedAt: '2026-03-01T10:00:00Z',
  overall: { exact: 0.83, withinOne: null, kappa: null, accuracy: 0.83, meanPointDiff: -0.33 },
  criteria: [{ label: 'Q1: Names a cause', exact: 0.67, withinOne: null, kappa: null, accuracy: 0.67, meanPointDiff: -0.33 }],
  disagreements: [{ submissionId: 's2', submissionName: 'kim.pdf', label: 'Q1: Names a cause', teacher: 'Met', ai: 'Not met' }],
};

/** A grade assignment whose agreement check answers each of `agreement` in turn (the last repeats). */
function serve(type: string, benchmarks: number, agreement: [string, unknown][]) {
  let gets = 0;
  server.use(
    http.post('/api/v1/db/assignment/history', () => HttpResponse.json({ data: { history: [] } })),
    http.post('/api/v1/db/assignment/get', () => {
      const [agreementStatus, report] = agreement[Math.min(gets, agreement.length - 1)];
      gets += 1;
      return HttpResponse.json({
        data: {
          assignment: {
            _id: ID,
            name: 'Causes of WW1',
            type,
            isHandWritten: false,
            provideInstantFeedback: false,
            submissions: [],
            agreementStatus,
            agreement: report,
            classSummary: null,
            summaryStatus: '',
          },
          functionResults: [0, 1, 2, 3].map((i) => result(i, [i !== 3, i % 2 === 0], i < benchmarks)),
          submissions: [],
        },
      });
    }),
    http.post('/api/v1/db/function/get', () =>
      HttpResponse.json({
        data: {
          function: {
            _id: 'f1',
            assignmentId: ID,
            type,
            highlights: [{ key: 'grammar', color: 'purple-500', title: 'Grammar', description: 'd' }],
            context: '',
            questions: [
              {
                questionText: 'Explain the causes.',
                context: '',
                rubricId: null,
                criteria: [
                  { description: 'Names a cause', points: 1 },
                  { description: 'Uses dates', points: 1 },
                ],
                subquestions: [],
              },
            ],
          },
        },
      }),
    ),
    http.get('/api/v1/db/rubric/list', () => HttpResponse.json({ data: { rubrics: [] } })),
  );
  return () => gets;
}

describe('assignment page: class summary and agreement', { timeout: 30_000 }, () => {
  it('shows the class summary from the results', async () => {
    serve('grade', 2, [['', null]]);
    renderApp(`/assignment/${ID}`);

    const summary = await screen.findByRole('region', { name: 'Class summary' });
    expect(await within(summary).findByRole('progressbar', { name: 'Q1: Names a cause: met by 75%, average 0.75 of 1 point' })).toBeInTheDocument();
    expect(within(summary).getByText('4 graded submissions · average 1.25 / 2 points')).toBeInTheDocument();
    expect(within(summary).getByRole('button', { name: 'Generate summary' })).toBeEnabled();
  });

  it('needs 3 benchmarks to check agreement', async () => {
    serve('grade', 2, [['', null]]);
    renderApp(`/assignment/${ID}`);

    const panel = await screen.findByRole('region', { name: 'Agreement with your grading' });
    expect(within(panel).getByRole('button', { name: 'Check agreement' })).toBeDisabled();
  });

  it('checks agreement, polls while it runs, and shows the figures', async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post('/api/v1/db/assignment/check-agreement', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ data: { agreementStatus: 'running' } });
      }),
    );
    const gets = serve('grade', 3, [
      ['', null],
      ['running', null],
      ['done', REPORT],
    ]);
    const user = userEvent.setup();
    renderApp(`/assignment/${ID}`);

    const panel = await screen.findByRole('region', { name: 'Agreement with your grading' });
    await user.click(within(panel).getByRole('button', { name: 'Check agreement' }));

    expect(await within(panel).findByRole('button', { name: 'Checking…' })).toBeDisabled();
    expect(bodies).toEqual([{ assignmentId: ID }]);
    // The page asks again by itself until the check is done.
    expect(await within(panel).findByLabelText('Overall agreement', {}, { timeout: 8000 })).toHaveTextContent('Exact agreement83%');
    // On a points assignment accuracy is exact agreement: it is not shown twice.
    expect(within(panel).getByLabelText('Overall agreement')).not.toHaveTextContent('Accuracy');
    const disagreements = within(panel).getByRole('list', { name: 'Disagreements' });
    expect(disagreements).toHaveTextContent('You: Met · AI: Not met');
    expect(within(disagreements).getByRole('link', { name: 'kim.pdf' })).toHaveAttribute('href', `/assignment/${ID}/submission/s2`);
    expect(gets()).toBeGreaterThanOrEqual(3);
    const after = gets();
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(gets()).toBe(after);
  });

  it('has no summary or agreement on a feedback assignment', async () => {
    serve('feedback', 0, [['', null]]);
    renderApp(`/assignment/${ID}`);

    expect(await screen.findByRole('heading', { name: 'Causes of WW1', level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Class summary' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Agreement with your grading' })).not.toBeInTheDocument();
  });
});
