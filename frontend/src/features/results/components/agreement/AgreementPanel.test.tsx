import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '../../../../testing/server';
import type { AgreementReport } from '../../api/types';
import type { JobStatus } from '../../lib/normalize';
import { renderResultUi, resultFixture } from '../../testing/render';
import { AgreementPanel } from './AgreementPanel';

const REPORT: AgreementReport = {
  benchmarks: 3,
  computedAt: '2026-03-01T10:00:00Z',
  overall: { exact: 0.8, withinOne: 0.95, kappa: 0.72, accuracy: null, meanPointDiff: 0.4 },
  criteria: [
    { label: 'Thesis', exact: 1, withinOne: 1, kappa: 1, accuracy: null, meanPointDiff: 0 },
    { label: 'Evidence', exact: 0.6667, withinOne: 0.9, kappa: 0.45, accuracy: null, meanPointDiff: -1.5 },
  ],
  disagreements: [{ submissionId: 's2', submissionName: 'kim.pdf', label: 'Evidence', teacher: 'Level 2 (Strong)', ai: 'Level 1 (Weak)' }],
};

function renderPanel(benchmarks: number, report: AgreementReport | null = null, status: JobStatus = '') {
  const results = Array.from({ length: 4 }, (_, i) => resultFixture({ _id: `r${i}`, isBenchmark: i < benchmarks }));
  return renderResultUi(
    <AgreementPanel assignmentId="a1" assignmentQueryKey={['assignments', 'a1']} results={results} report={report} status={status} />,
  );
}

describe('AgreementPanel', () => {
  it('needs 3 benchmarks: the button is disabled and says why', () => {
    renderPanel(2);

    const button = screen.getByRole('button', { name: 'Check agreement' });
    expect(button).toBeDisabled();
    expect(button.parentElement).toHaveAccessibleDescription('Mark at least 3 results as benchmarks to check agreement.');
    expect(screen.getByText(/^2 benchmark results\./)).toBeInTheDocument();
  });

  it('starts a check with 3 benchmarks', async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post('/api/v1/db/assignment/check-agreement', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ data: { agreementStatus: 'running' } });
      }),
    );
    const user = userEvent.setup();
    renderPanel(3);

    await user.click(screen.getByRole('button', { name: 'Check agreement' }));
    expect(bodies).toEqual([{ assignmentId: 'a1' }]);
  });

  it('says the server’s reason when a check cannot start', async () => {
    server.use(
      http.post('/api/v1/db/assignment/check-agreement', () =>
        HttpResponse.json({ error: { code: 'invalid', message: 'Mark at least 3 results as benchmarks to check agreement.' } }, { status: 400 }),
      ),
    );
    const user = userEvent.setup();
    renderPanel(3);

    await user.click(screen.getByRole('button', { name: 'Check agreement' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Mark at least 3 results as benchmarks to check agreement.');
  });

  it('shows "Checking…" while the check runs', () => {
    renderPanel(3, null, 'running');

    expect(screen.getByRole('button', { name: 'Checking…' })).toBeDisabled();
    expect(screen.getByRole('progressbar', { name: 'Checking agreement' })).toBeInTheDocument();
  });

  it('shows the figures: overall, per criterion, and the disagreements', () => {
    renderPanel(3, REPORT, 'done');

    const overall = screen.getByLabelText('Overall agreement');
    expect(overall).toHaveTextContent('Exact agreement80%');
    expect(overall).toHaveTextContent('Within one level95%');
    expect(overall).toHaveTextContent('Weighted kappa0.72Substantial (1 is perfect)');
    // Each figure says in a sentence what it counts.
    expect(overall).toHaveTextContent('the share that matched yours exactly');
    expect(overall).toHaveTextContent('at most one level from yours');
    expect(overall).toHaveTextContent('averaged over the benchmark results');
    expect(overall).toHaveTextContent('Mean point difference+0.4');
    expect(overall).not.toHaveTextContent('Accuracy');

    const table = screen.getByRole('table', { name: 'Agreement per criterion' });
    const rows = within(table).getAllByRole('row');
    expect(rows[0]).toHaveTextContent('CriterionExactWithin oneKappaMean difference');
    expect(rows[2]).toHaveTextContent('Evidence67%90%0.45−1.5');

    const list = screen.getByRole('list', { name: 'Disagreements' });
    expect(list).toHaveTextContent('kim.pdf · Evidence');
    expect(list).toHaveTextContent('You: Level 2 (Strong) · AI: Level 1 (Weak)');
    expect(screen.getByText(/Checked against 3 benchmark results/)).toBeInTheDocument();
  });

  it('shows a points assignment one figure for its criteria, not "Exact agreement" and "Accuracy" side by side', () => {
    const points: AgreementReport = {
      ...REPORT,
      overall: { exact: 0.94, withinOne: null, kappa: null, accuracy: 0.94, meanPointDiff: -0.2 },
      criteria: [{ label: '1 · Names a cause', exact: 0.94, withinOne: null, kappa: null, accuracy: 0.94, meanPointDiff: -0.2 }],
      disagreements: [],
    };
    renderPanel(3, points, 'done');

    const overall = screen.getByLabelText('Overall agreement');
    expect(overall).toHaveTextContent('Exact agreement94%Of the criteria on your benchmarks, the share the AI marked met or not met exactly as you did.');
    expect(overall).not.toHaveTextContent('Accuracy');
  });

  it('says when the last check failed', () => {
    renderPanel(3, null, 'failed');
    expect(screen.getByText('The last agreement check did not finish. Please check again.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Check agreement' })).toBeEnabled();
  });
});
