import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ASSIGNMENT_ID, apiError, fakeBackend, submission } from '../testing/fake-backend';
import { renderSubmissions } from '../testing/render';

const PAGE = `/assignment/${ASSIGNMENT_ID}`;

/** A year group: n submissions named student-0001.pdf … */
function yearGroup(n: number) {
  return Array.from({ length: n }, (_, i) => submission(`s${i + 1}`, `student-${String(i + 1).padStart(4, '0')}.pdf`, { studentEmail: `pupil${i + 1}@school.test` }));
}

describe('a year group on one page', { timeout: 60_000 }, () => {
  it('shows one page, pages on, searches on the server', async () => {
    const backend = fakeBackend({ submissions: yearGroup(60) });
    const user = userEvent.setup();
    renderSubmissions(`${PAGE}?per=25`);
    await screen.findByRole('table', { name: 'Submissions' });
    const bodyRows = () => screen.getByRole('table', { name: 'Submissions' }).querySelectorAll('tbody tr');
    // A screenful first, the rest of the page right after it (FIRST_DRAW_ROWS).
    await waitFor(() => expect(bodyRows()).toHaveLength(25));
    expect(screen.getByText('1–25 of 60')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(await screen.findByText('student-0026.pdf')).toBeInTheDocument();
    expect(backend.bodies('db/assignment/submission-rows').at(-1)).toMatchObject({ offset: 25, limit: 25 });

    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'pupil7@');
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect(screen.getByText('student-0007.pdf')).toBeInTheDocument();
    expect(backend.bodies('db/assignment/submission-rows').at(-1)).toMatchObject({ search: 'pupil7@', offset: 0 });
  });

  it('selects all matching across pages and grades more than 1,000 in batches, saying how far it got', async () => {
    const backend = fakeBackend({ submissions: yearGroup(1500) });
    const user = userEvent.setup();
    renderSubmissions(`${PAGE}?per=25`);
    await screen.findByRole('table', { name: 'Submissions' });

    await user.click(screen.getByRole('checkbox', { name: 'Select all submissions' }));
    await user.click(await screen.findByRole('button', { name: 'Select all 1500 matching' }));
    expect(await screen.findByText('1500 selected')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Grade selected' }));
    await waitFor(() => expect(backend.bodies('lambda/runFunctionOnMany')).toHaveLength(2));
    const [first, second] = backend.bodies('lambda/runFunctionOnMany') as { submissionIds: string[] }[];
    expect(first.submissionIds).toHaveLength(1000);
    expect(second.submissionIds).toHaveLength(500);
    expect(new Set([...first.submissionIds, ...second.submissionIds]).size).toBe(1500);
    expect(await screen.findByText('Grading submissions! This should take 1-2 minutes.')).toBeInTheDocument();
  });

  it('says grading started once the server has answered, while the class is still being read again', async () => {
    const backend = fakeBackend({ submissions: yearGroup(1500) });
    const user = userEvent.setup();
    renderSubmissions(`${PAGE}?per=25`);
    await screen.findByRole('table', { name: 'Submissions' });
    // Once grading is asked for, the class's reads (the refresh after each batch) wait until the
    // test lets them go.
    let started = false;
    let release = () => {};
    const held = new Promise<void>((done) => (release = done));
    const hold = async () => {
      if (started) await held;
      return undefined;
    };
    const { server } = await import('../../../testing/server');
    const { http } = await import('msw');
    server.use(
      http.post('/api/v1/lambda/runFunctionOnMany', () => {
        started = true;
        return undefined;
      }),
      http.post('/api/v1/db/assignment/submission-rows', hold),
      http.post('/api/v1/db/assignment/get', hold),
    );
    try {
      await user.click(screen.getByRole('button', { name: 'Grade all' }));
      expect(await screen.findByText('Grading submissions! This should take 1-2 minutes.')).toBeInTheDocument();
      expect(backend.bodies('lambda/runFunctionOnMany')).toHaveLength(2);
    } finally {
      release();
    }
  });

  it('stops at a batch that fails and says how many were queued', async () => {
    let calls = 0;
    const backend = fakeBackend({ submissions: yearGroup(2500) });
    const user = userEvent.setup();
    renderSubmissions(`${PAGE}?per=25`);
    await screen.findByRole('table', { name: 'Submissions' });
    const { server } = await import('../../../testing/server');
    const { http } = await import('msw');
    server.use(
      http.post('/api/v1/lambda/runFunctionOnMany', () => {
        calls++;
        return calls === 2 ? apiError(429, 'Your team has used its AI budget.', 'rate_limited') : undefined;
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Grade all' }));
    expect(await screen.findByText(/Your team has used its AI budget\. 1,000 of 2,500 were queued; press again to queue the rest\./)).toBeInTheDocument();
    expect(calls).toBe(2);
    expect(backend.bodies('lambda/runFunctionOnMany')).toHaveLength(1);
  });
});

describe('a class bigger than a page', { timeout: 60_000 }, () => {
  it('grades the changed questions of every outdated result of the class, not only the page shown', async () => {
    const subs = yearGroup(120);
    // 40 results graded before the definition changed, spread over every page; 8 of them reviewed.
    const functionResults = subs.map((s, i) => ({
      _id: `fr-${s._id}`,
      submission: s._id,
      status: i % 3 === 0 && i % 5 === 0 ? 'reviewed' : 'graded',
      error: '',
      outdated: i % 3 === 0,
    }));
    const backend = fakeBackend({ submissions: subs, functionResults });
    const user = userEvent.setup();
    renderSubmissions(`${PAGE}?per=25&page=2`);
    await screen.findByText('student-0026.pdf');

    await user.click(screen.getByRole('button', { name: 'Grade changed questions again' }));
    await waitFor(() => expect(backend.bodies('lambda/runFunctionOnMany')).toHaveLength(1));
    const [run] = backend.bodies('lambda/runFunctionOnMany') as { submissionIds: string[]; onlyOutdated: boolean }[];
    expect(run.onlyOutdated).toBe(true);
    expect(run.submissionIds).toHaveLength(40);
    expect(run.submissionIds).toContain('s1'); // on page 1
    expect(run.submissionIds).toContain('s118'); // on page 5
    expect(await screen.findByText(/8 you reviewed were skipped\./)).toBeInTheDocument();
  });
});
