import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { server } from '../../testing/server';
import { renderApp } from '../../testing/test-utils';

const ID = 'a1111111-1111-4111-8111-111111111111';

function submission(id: string, name: string, status: string) {
  return {
    _id: id,
    assignmentId: ID,
    name,
    location: `assignments/${ID}/submissions/0000-${name}`,
    studentName: '',
    studentEmail: '',
    submissionRole: 'teacher',
    source: 'upload',
    status,
    error: status === 'failed' ? 'This file is not a PDF.' : '',
    preview: status === 'ready' ? `Text of ${name}` : '',
    pageCount: status === 'ready' ? 1 : 0,
    isHandWritten: false,
    createdAt: '2026-03-01T10:00:00Z',
    updatedAt: '2026-03-01T10:00:00Z',
  };
}

/**
 * Serves one grade assignment whose submissions move one step per read of the table's rows
 * (`submission-rows`, which the table polls), from the `steps` given; the last step repeats.
 * Returns when the rows were fetched.
 */
function serveAssignment(steps: [string, string][][]) {
  const gets: number[] = [];
  const current = () => steps[Math.min(Math.max(gets.length - 1, 0), steps.length - 1)];
  server.use(
    http.post('/api/v1/db/assignment/history', () => HttpResponse.json({ data: { history: [] } })),
    http.post('/api/v1/db/assignment/submission-rows', () => {
      const step = steps[Math.min(gets.length, steps.length - 1)];
      gets.push(Date.now());
      const rows = step.map(([name, status], i) => ({ ...submission(`s${i + 1}`, name, status), bucket: status === 'ready' ? 'ungraded' : status === 'failed' ? 'failed' : 'reading', result: null }));
      const reading = rows.filter((r) => r.bucket === 'reading').length;
      return HttpResponse.json({
        data: { rows, total: rows.length, classSize: rows.length, inProgress: reading > 0, counts: { reading }, version: '' },
      });
    }),
    http.post('/api/v1/db/assignment/get', () => {
      const submissions = current().map(([name, status], i) => submission(`s${i + 1}`, name, status));
      return HttpResponse.json({
        data: {
          assignment: {
            _id: ID,
            name: 'Causes of WW1',
            type: 'grade',
            isHandWritten: false,
            provideInstantFeedback: false,
            submissions: submissions.map((s) => ({ _id: s._id })),
          },
          functionResults: [],
          submissions,
        },
      });
    }),
    http.post('/api/v1/db/function/get', () =>
      HttpResponse.json({
        data: {
          function: {
            _id: 'f1',
            assignmentId: ID,
            type: 'grade',
            questions: [{ questionText: 'Explain the causes.', context: '', rubricId: null, criteria: [], subquestions: [] }],
          },
        },
      }),
    ),
    http.get('/api/v1/db/rubric/list', () => HttpResponse.json({ data: { rubrics: [] } })),
  );
  return gets;
}

async function tick() {
  await act(async () => {
    vi.advanceTimersByTime(2000);
  });
}

describe('assignment page with submissions', { timeout: 30_000 }, () => {
  it('shows the submissions under the assignment', async () => {
    serveAssignment([[['essay.pdf', 'ready']]]);
    renderApp(`/assignment/${ID}`);

    expect(await screen.findByRole('heading', { name: 'Causes of WW1', level: 1 })).toBeInTheDocument();
    const panel = screen.getByRole('region', { name: 'Submissions' });
    expect(within(panel).getByRole('button', { name: 'Upload files' })).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Import CSV' })).toBeEnabled();
    expect(await within(panel).findByRole('rowheader', { name: 'essay.pdf' })).toBeInTheDocument();
  });

  it('offers Google Classroom import beside Import CSV', async () => {
    serveAssignment([[['essay.pdf', 'ready']]]);
    server.use(
      http.post('/api/v1/google/classroom/status', () =>
        HttpResponse.json({ data: { configured: true, connected: false, reason: "Connect Google Classroom to import your students' work." } }),
      ),
    );
    const user = userEvent.setup();
    renderApp(`/assignment/${ID}`);

    const panel = await screen.findByRole('region', { name: 'Submissions' });
    const button = await within(panel).findByRole('button', { name: 'Google Classroom' });
    await waitFor(() => expect(button).toBeEnabled());
    await user.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Import from Google Classroom' });
    expect(dialog).toHaveTextContent("Connect Google Classroom to import your students' work.");
    expect(within(dialog).getByRole('button', { name: 'Connect Google Classroom' })).toBeInTheDocument();
  });

  it('polls the table every 2 s while submissions are read, and stops when none is', async () => {
    // Only the interval is faked: Testing Library and MSW keep their real timeouts.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const gets = serveAssignment([
      [['a.pdf', 'queued'], ['b.pdf', 'queued']],
      [['a.pdf', 'extracting'], ['b.pdf', 'ready']],
      [['a.pdf', 'failed'], ['b.pdf', 'ready']],
    ]);
    renderApp(`/assignment/${ID}`);

    const table = await screen.findByRole('table', { name: 'Submissions' });
    expect(within(table).getAllByText('Queued')).toHaveLength(2);
    expect(gets).toHaveLength(1);

    await tick();
    expect(await within(table).findByText('Reading…')).toBeInTheDocument();
    expect(gets).toHaveLength(2);

    await tick();
    expect(await within(table).findByText('This file is not a PDF.')).toBeInTheDocument();
    expect(within(table).getByText('Failed')).toBeInTheDocument();
    expect(gets).toHaveLength(3);

    // Nothing is queued or being read any more: no more requests.
    await tick();
    await tick();
    await tick();
    expect(gets).toHaveLength(3);
  });

  it('does not poll when every submission is already read', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const gets = serveAssignment([[['a.pdf', 'ready']]]);
    renderApp(`/assignment/${ID}`);

    await screen.findByRole('rowheader', { name: 'a.pdf' });
    await tick();
    await tick();
    expect(gets).toHaveLength(1);
  });

  it('warns on Release only about results graded before questions were added, not ones only reworded or re-pointed', async () => {
    serveAssignment([[['ann.pdf', 'ready'], ['ben.pdf', 'ready']]]);
    // Both reviewed and graded against an earlier version: ann.pdf before question 2a was reworded
    // and a criterion's points changed, ben.pdf before question 3 was added.
    const result = (id: string, parts: string[], questionsAdded: boolean) => ({
      _id: `fr-${id}`, submission: id, status: 'reviewed', error: '', totalPoints: 3, maxPoints: 5, reviewed: true,
      outdated: true, outdatedParts: parts, ...(questionsAdded ? { questionsAdded } : {}),
    });
    server.use(
      http.get('/api/v1/app-config', () => HttpResponse.json({ data: { demoModel: false, emailEnabled: false } })),
      http.post('/api/v1/db/assignment/release/list', () => HttpResponse.json({ data: { releases: [] } })),
      http.post('/api/v1/db/assignment/submission-rows', () => {
        const rows = [
          { ...submission('s1', 'ann.pdf', 'ready'), bucket: 'reviewed', result: result('s1', ['question 2a'], false) },
          { ...submission('s2', 'ben.pdf', 'ready'), bucket: 'reviewed', result: result('s2', ['question 3'], true) },
        ];
        return HttpResponse.json({
          data: {
            rows, total: 2, classSize: 2, inProgress: false, counts: { reviewed: 2 }, version: '',
            submissionIds: ['s1', 's2'], reviewedIds: ['s1', 's2'],
            outdatedIds: ['s1', 's2'], outdatedReviewed: 2, questionsAddedIds: ['s2'], questionsAddedReviewed: 1,
          },
        });
      }),
    );
    const user = userEvent.setup();
    renderApp(`/assignment/${ID}`);
    const panel = await screen.findByRole('region', { name: 'Submissions' });
    await within(panel).findByRole('rowheader', { name: 'ann.pdf' });

    await user.click(within(panel).getByRole('checkbox', { name: 'Select ann.pdf' }));
    await user.click(within(panel).getByRole('button', { name: 'Release' }));
    let dialog = await screen.findByRole('dialog', { name: 'Release results to students' });
    expect(await within(dialog).findByText(/^The selected result will be released/)).toBeInTheDocument();
    expect(within(dialog).queryByText(/questions added since/)).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(within(panel).getByRole('checkbox', { name: 'Select ann.pdf' }));
    await user.click(within(panel).getByRole('checkbox', { name: 'Select ben.pdf' }));
    await user.click(within(panel).getByRole('button', { name: 'Release' }));
    dialog = await screen.findByRole('dialog', { name: 'Release results to students' });
    expect(await within(dialog).findByText(/questions added since/)).toHaveTextContent(
      '1 of these results was graded before questions were added to the assignment: its student will see the questions added since as not met. You reviewed it',
    );
  });
});
