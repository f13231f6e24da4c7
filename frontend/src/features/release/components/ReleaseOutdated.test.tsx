import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '../../../testing/server';
import { renderWithProviders } from '../../../testing/test-utils';
import type { Release } from '../api/types';
import { ReleaseButton } from './ReleaseButton';

const ONE_OUTDATED =
  '1 of these results was graded before questions were added to the assignment: its student will see the questions added since as not met.';

/**
 * A fake backend without email that releases what it is asked, and the release bodies it got; the
 * class's reviewed results are `reviewedIds`, its graded ones not reviewed `gradedIds`, its live
 * links `releasedIds`.
 */
function setup({ reviewedIds = [] as string[], gradedIds = [] as string[], releasedIds = [] as string[] } = {}) {
  const bodies: unknown[] = [];
  const live = (submissionId: string): Release => ({
    submissionId, studentName: submissionId, studentEmail: '', state: 'released', link: `https://markwell.test/results/${submissionId}`, email: 'none',
  });
  server.use(
    http.get('/api/v1/app-config', () => HttpResponse.json({ data: { demoModel: false, emailEnabled: false } })),
    http.post('/api/v1/db/assignment/release/list', () => HttpResponse.json({ data: { releases: releasedIds.map(live) } })),
    http.post('/api/v1/db/assignment/submission-rows', async ({ request }) => {
      const { status } = (await request.json()) as { status?: string };
      if (status === 'graded') return HttpResponse.json({ data: { rows: [], total: gradedIds.length, submissionIds: gradedIds, reviewedIds: [], outdatedIds: [] } });
      return HttpResponse.json({ data: { rows: [], total: reviewedIds.length, submissionIds: reviewedIds, reviewedIds, outdatedIds: [] } });
    }),
    http.post('/api/v1/db/assignment/release', async ({ request }) => {
      bodies.push(await request.json());
      const released: Release = { submissionId: 's1', studentName: 'Ada', studentEmail: '', state: 'released', link: 'https://markwell.test/results/t', email: 'none' };
      return HttpResponse.json({ data: { releases: [released], skipped: 0 } });
    }),
  );
  return { bodies };
}

async function openDialog() {
  await userEvent.setup().click(screen.getByRole('button', { name: 'Release' }));
  return screen.findByRole('dialog', { name: 'Release results to students' });
}

describe('Releasing results graded before questions were added', { timeout: 30_000 }, () => {
  it('warns before releasing all reviewed when a reviewed result is outdated, and still releases', async () => {
    const { bodies } = setup({ reviewedIds: ['s1'] });
    const user = userEvent.setup();
    // The teacher's walk: one reviewed result, graded before Question 4 was added.
    renderWithProviders(<ReleaseButton assignmentId="a1" selectedIds={[]} reviewedCount={1} questionsAddedIds={['s1']} questionsAddedReviewed={1} />);

    const dialog = await openDialog();
    const warning = within(dialog).getByText(/graded before questions were added/);
    expect(warning).toHaveTextContent(ONE_OUTDATED);
    // It is reviewed: "Grade changed questions again" would leave it as it is, so the advice says what does mark it.
    expect(warning).toHaveTextContent(
      'You reviewed it, and “Grade changed questions again” leaves reviewed results as they are: to mark the new questions, select it, press “Grade selected” and choose “Grade it again too” (this replaces your ticks and comments), or release anyway.',
    );
    expect(warning).not.toHaveTextContent(/skips reviewed results: select/);

    // The teacher may mean it: releasing stays possible.
    await user.click(await within(dialog).findByRole('button', { name: 'Release all reviewed (1)' }));
    await waitFor(() => expect(bodies).toEqual([{ assignmentId: 'a1', sendEmail: false }]));
  });

  it('counts only the selected rows that are outdated', async () => {
    setup({ gradedIds: ['s1', 's2', 's3'] });
    renderWithProviders(
      <ReleaseButton assignmentId="a1" selectedIds={['s1', 's2', 's3']} reviewedCount={0} questionsAddedIds={['s2', 's3', 's9']} questionsAddedReviewed={0} />,
    );

    const dialog = await openDialog();
    expect(await within(dialog).findByRole('button', { name: 'Release 3 selected' })).toBeEnabled();
    expect(within(dialog).getByText(/graded before questions were added/)).toHaveTextContent(
      '2 of these results were graded before questions were added to the assignment: their students will see the questions added since as not met. Grade them again first with “Grade changed questions again”, or release anyway.',
    );
  });

  it('says what marks the new questions of a selection of reviewed and not reviewed results', async () => {
    setup({ reviewedIds: ['s1', 's9'], gradedIds: ['s2', 's3'] });
    renderWithProviders(
      <ReleaseButton assignmentId="a1" selectedIds={['s1', 's2', 's3']} reviewedCount={2} questionsAddedIds={['s1', 's2', 's3']} questionsAddedReviewed={1} />,
    );

    const dialog = await openDialog();
    await waitFor(() =>
      expect(within(dialog).getByText(/graded before questions were added/)).toHaveTextContent(
        '3 of these results were graded before questions were added to the assignment: their students will see the questions added since as not met. ' +
          '“Grade changed questions again” grades the 2 you have not reviewed; it leaves the one you reviewed as it is: to mark the new questions there, ' +
          'select it, press “Grade selected” and choose “Grade it again too” (this replaces your ticks and comments). Or release anyway.',
      ),
    );
  });

  it('does not warn when no result the release takes is outdated', async () => {
    setup({ reviewedIds: ['s1', 's3'] });
    // Outdated results exist, but none of them is selected.
    const { unmount } = renderWithProviders(
      <ReleaseButton assignmentId="a1" selectedIds={['s1']} reviewedCount={2} questionsAddedIds={['s2']} questionsAddedReviewed={1} />,
    );
    let dialog = await openDialog();
    expect(await within(dialog).findByText(/^The selected result will be released/)).toBeInTheDocument();
    expect(within(dialog).queryByText(/questions were added/)).not.toBeInTheDocument();
    unmount();

    // Releasing all reviewed: the outdated result is not a reviewed one, so it is not released.
    renderWithProviders(<ReleaseButton assignmentId="a1" selectedIds={[]} reviewedCount={2} questionsAddedIds={['s2']} questionsAddedReviewed={0} />);
    dialog = await openDialog();
    expect(await within(dialog).findByRole('button', { name: 'Release all reviewed (2)' })).toBeEnabled();
    expect(within(dialog).queryByText(/questions were added/)).not.toBeInTheDocument();
  });

  it('does not warn about an outdated reviewed result that is released already: releasing all leaves it be', async () => {
    // s1 was graded before Question 4 was added and released since; s2 is reviewed and not released.
    const { bodies } = setup({ reviewedIds: ['s1', 's2'], releasedIds: ['s1'] });
    const user = userEvent.setup();
    renderWithProviders(<ReleaseButton assignmentId="a1" selectedIds={[]} reviewedCount={2} questionsAddedIds={['s1']} questionsAddedReviewed={1} />);

    const dialog = await openDialog();
    await user.click(await within(dialog).findByRole('button', { name: 'Release all reviewed (1)' }));
    expect(within(dialog).queryByText(/questions were added/)).not.toBeInTheDocument();
    await waitFor(() => expect(bodies).toEqual([{ assignmentId: 'a1', submissionIds: ['s2'], sendEmail: false }]));
  });
});
