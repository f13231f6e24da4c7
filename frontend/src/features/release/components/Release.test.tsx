import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { server } from '../../../testing/server';
import { renderWithProviders } from '../../../testing/test-utils';
import type { Release } from '../api/types';
import { ReleaseButton } from './ReleaseButton';
import { ReleaseRowState } from './ReleaseRowState';

const LINK = 'https://markwell.test/results/tok-ada';

/** A fake backend: email on or off, releases as the server answers them, and the bodies it got. */
function setup({ emailEnabled = false, releases = [] as Release[], skipped = { skipped: 1 } as Record<string, number> } = {}) {
  let list = releases;
  const bodies: { path: string; body: unknown }[] = [];
  server.use(
    http.get('/api/v1/app-config', () => HttpResponse.json({ data: { demoModel: false, emailEnabled } })),
    http.post('/api/v1/db/assignment/release/list', async ({ request }) => {
      const body = (await request.json()) as { assignmentId: string; submissionIds?: string[] };
      bodies.push({ path: 'list', body });
      const ids = body.submissionIds;
      return HttpResponse.json({ data: { releases: ids ? list.filter((r) => ids.includes(r.submissionId)) : list } });
    }),
    http.post('/api/v1/db/assignment/release', async ({ request }) => {
      const body = (await request.json()) as { submissionIds?: string[]; sendEmail: boolean };
      bodies.push({ path: 'release', body });
      const released: Release = {
        submissionId: 's1', studentName: 'Ada', studentEmail: 'ada@pupils.test', state: 'released', link: LINK,
        email: body.sendEmail ? 'queued' : 'none',
      };
      list = [released];
      return HttpResponse.json({ data: { releases: [released], ...skipped } });
    }),
    http.post('/api/v1/db/assignment/release/revoke', async ({ request }) => {
      bodies.push({ path: 'revoke', body: await request.json() });
      list = list.map((r) => ({ ...r, state: 'revoked' as const, link: undefined }));
      return HttpResponse.json({ data: { releases: list } });
    }),
  );
  return { bodies };
}

describe('Releasing results', { timeout: 30_000 }, () => {
  it('releases all reviewed results without email, and says how to hand out the links', async () => {
    const { bodies } = setup();
    const user = userEvent.setup();
    const onReleased = vi.fn();
    renderWithProviders(<ReleaseButton assignmentId="a1" selectedIds={[]} reviewedCount={3} onReleased={onReleased} />);

    await user.click(screen.getByRole('button', { name: 'Release' }));
    const dialog = await screen.findByRole('dialog', { name: 'Release results to students' });
    expect(await within(dialog).findByText(/Email is not set up on this server/)).toBeInTheDocument();
    expect(within(dialog).queryByRole('checkbox', { name: 'Email each student a link' })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Download links (CSV)' })).toBeEnabled();
    await user.click(within(dialog).getByRole('button', { name: 'Release all reviewed (3)' }));

    await waitFor(() => expect(bodies.filter((b) => b.path !== 'list')).toEqual([{ path: 'release', body: { assignmentId: 'a1', sendEmail: false } }]));
    expect(await screen.findByText('Released 1 result. 1 skipped: not graded or reviewed yet.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(onReleased).toHaveBeenCalled();
  });

  it('says why each skipped result was left out: not reviewed, or not graded', async () => {
    setup({ skipped: { skipped: 7, skippedNotReviewed: 6, skippedNotGraded: 1 } });
    const user = userEvent.setup();
    renderWithProviders(<ReleaseButton assignmentId="a1" selectedIds={[]} reviewedCount={1} />);

    await user.click(screen.getByRole('button', { name: 'Release' }));
    const dialog = await screen.findByRole('dialog', { name: 'Release results to students' });
    await user.click(within(dialog).getByRole('button', { name: 'Release all reviewed (1)' }));
    expect(
      await screen.findByText('Released 1 result. 6 skipped: not reviewed yet; 1 skipped: not graded yet.'),
    ).toBeInTheDocument();
  });

  it('releases the selected rows and emails them when the server has SMTP', async () => {
    const { bodies } = setup({ emailEnabled: true });
    const user = userEvent.setup();
    renderWithProviders(<ReleaseButton assignmentId="a1" selectedIds={['s1', 's2']} reviewedCount={0} />);

    await user.click(screen.getByRole('button', { name: 'Release' }));
    const dialog = await screen.findByRole('dialog', { name: 'Release results to students' });
    const email = await within(dialog).findByRole('checkbox', { name: 'Email each student a link' });
    expect(email).toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'Release 2 selected' }));
    await waitFor(() =>
      expect(bodies.filter((b) => b.path !== 'list')).toEqual([{ path: 'release', body: { assignmentId: 'a1', submissionIds: ['s1', 's2'], sendEmail: true } }]),
    );
    expect(await screen.findByText(/Emailing 1 student\./)).toBeInTheDocument();
  });

  it('counts the selected rows as results, not students: one pupil’s two attempts are two results', async () => {
    setup({ emailEnabled: true });
    // Eight rows, two of them attempts by the same pupil (Ada): seven students.
    const ids = ['s1', 's1b', 's2', 's3', 's4', 's5', 's6', 's7'];
    server.use(
      http.post('/api/v1/db/assignment/release', () => {
        const release = (submissionId: string, studentName: string, studentEmail: string): Release => ({
          submissionId, studentName, studentEmail, state: 'released', link: `${LINK}-${submissionId}`, email: 'queued',
        });
        return HttpResponse.json({
          data: { releases: [release('s1', 'Ada', 'ada@pupils.test'), release('s1b', 'Ada', 'Ada@Pupils.test'), release('s2', 'Ben', 'ben@pupils.test')], skipped: 0 },
        });
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<ReleaseButton assignmentId="a1" selectedIds={ids} reviewedCount={0} />);

    await user.click(screen.getByRole('button', { name: 'Release' }));
    const dialog = await screen.findByRole('dialog', { name: 'Release results to students' });
    expect(
      within(dialog).getByText(/^The 8 selected results are released: each student gets a private link to their result page\./),
    ).toBeInTheDocument();
    expect(within(dialog).queryByText(/selected students?/)).not.toBeInTheDocument();

    // Ada's two results are two links but one student emailed.
    await user.click(await within(dialog).findByRole('button', { name: 'Release 8 selected' }));
    expect(await screen.findByText('Released 3 results. Emailing 2 students.')).toBeInTheDocument();
  });

  it('words one selected row, and every reviewed result, as results', async () => {
    setup();
    const user = userEvent.setup();
    const { unmount } = renderWithProviders(<ReleaseButton assignmentId="a1" selectedIds={['s1']} reviewedCount={0} />);
    await user.click(screen.getByRole('button', { name: 'Release' }));
    let dialog = await screen.findByRole('dialog', { name: 'Release results to students' });
    expect(within(dialog).getByText(/^The selected result is released: its student gets a private link/)).toBeInTheDocument();
    unmount();

    renderWithProviders(<ReleaseButton assignmentId="a1" selectedIds={[]} reviewedCount={5} />);
    await user.click(screen.getByRole('button', { name: 'Release' }));
    dialog = await screen.findByRole('dialog', { name: 'Release results to students' });
    expect(within(dialog).getByText(/^The 5 reviewed results are released: each student gets a private link/)).toBeInTheDocument();
  });

  it('shows the server’s sentence when nothing can be released, and keeps the dialog open', async () => {
    setup();
    server.use(
      http.post('/api/v1/db/assignment/release', () =>
        HttpResponse.json({ error: { code: 'invalid', message: 'Nothing to release: only graded, annotated or reviewed results can be released.' } }, { status: 400 }),
      ),
    );
    const user = userEvent.setup();
    renderWithProviders(<ReleaseButton assignmentId="a1" selectedIds={['s9']} reviewedCount={0} />);
    await user.click(screen.getByRole('button', { name: 'Release' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Release 1 selected' }));
    expect(await within(dialog).findByText(/Nothing to release/)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Release 1 selected' })).toBeEnabled();
  });

  it('shows each row’s state, copies its link and revokes it', async () => {
    const { bodies } = setup({
      releases: [{ submissionId: 's1', studentName: 'Ada', studentEmail: 'ada@pupils.test', state: 'released', link: LINK, email: 'sent' }],
    });
    const user = userEvent.setup();
    renderWithProviders(<ReleaseRowState assignmentId="a1" submissionId="s1" name="Ada" />);

    expect(await screen.findByText('Emailed')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Copy link for Ada' }));
    // user-event stands in for the system clipboard.
    await expect(navigator.clipboard.readText()).resolves.toBe(LINK);
    expect(await screen.findByText('Copied the link for Ada.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Revoke link for Ada' }));
    // Nothing is revoked before the teacher confirms.
    const confirm = await screen.findByRole('dialog', { name: 'Revoke the link for Ada?' });
    expect(bodies.filter((b) => b.path === 'revoke')).toEqual([]);
    await user.click(within(confirm).getByRole('button', { name: 'Revoke link' }));
    await waitFor(() => expect(bodies.filter((b) => b.path === 'revoke')).toEqual([{ path: 'revoke', body: { assignmentId: 'a1', submissionIds: ['s1'] } }]));
    expect(await screen.findByText('Not released')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Copy link for Ada' })).not.toBeInTheDocument();
  });

  it('asks for the releases of the rows on the page only, in one request', async () => {
    const { bodies } = setup({
      releases: [
        { submissionId: 's1', studentName: 'Ada', studentEmail: 'ada@pupils.test', state: 'released', link: LINK, email: 'none' },
        { submissionId: 's2', studentName: 'Ben', studentEmail: '', state: 'not-released', email: 'none' },
        { submissionId: 's9', studentName: 'Off the page', studentEmail: '', state: 'released', link: LINK, email: 'none' },
      ],
    });
    renderWithProviders(
      <>
        <ReleaseRowState assignmentId="a1" submissionId="s1" name="Ada" />
        <ReleaseRowState assignmentId="a1" submissionId="s2" name="Ben" />
        <ReleaseRowState assignmentId="a1" submissionId="s3" name="Deleted since" />
      </>,
    );
    expect(await screen.findByRole('button', { name: 'Copy link for Ada' })).toBeInTheDocument();
    expect(screen.getAllByText('Not released')).toHaveLength(2);
    expect(bodies).toEqual([{ path: 'list', body: { assignmentId: 'a1', submissionIds: ['s1', 's2', 's3'] } }]);
  });

  it('says a bounce and why', async () => {
    setup({
      releases: [{ submissionId: 's1', studentName: 'Eve', studentEmail: 'eve@x.test', state: 'released', link: LINK, email: 'bounced', emailError: '550 5.1.1 no such user' }],
    });
    renderWithProviders(<ReleaseRowState assignmentId="a1" submissionId="s1" name="Eve" />);
    const chip = await screen.findByLabelText(/^Bounced\. The email to eve@x\.test bounced: 550 5\.1\.1 no such user/);
    expect(chip).toBeInTheDocument();
  });
});
