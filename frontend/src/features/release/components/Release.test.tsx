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

/**
 * A fake backend: email on or off, releases as the server answers them, the class's reviewed
 * results and its graded ones not reviewed (`submission-rows` with ids, all or the "graded"
 * bucket), and the bodies it got (the dialog's reads of the class's results not among them).
 */
function setup({
  emailEnabled = false,
  releases = [] as Release[],
  skipped = { skipped: 1 } as Record<string, number>,
  reviewedIds = [] as string[],
  gradedIds = [] as string[],
} = {}) {
  let list = releases;
  const bodies: { path: string; body: unknown }[] = [];
  server.use(
    http.get('/api/v1/app-config', () => HttpResponse.json({ data: { demoModel: false, emailEnabled } })),
    http.post('/api/v1/db/assignment/submission-rows', async ({ request }) => {
      const { status } = (await request.json()) as { status?: string };
      if (status === 'graded') return HttpResponse.json({ data: { rows: [], total: gradedIds.length, submissionIds: gradedIds, reviewedIds: [], outdatedIds: [] } });
      return HttpResponse.json({ data: { rows: [], total: reviewedIds.length, submissionIds: reviewedIds, reviewedIds, outdatedIds: [] } });
    }),
    http.post('/api/v1/db/assignment/release/links-csv', () => {
      bodies.push({ path: 'links-csv', body: null });
      return new HttpResponse(`\uFEFFStudent name,Email,Link\r\nAda,ada@pupils.test,${LINK}\r\n`, {
        headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename="Essay - links.csv"' },
      });
    }),
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
    const { bodies } = setup({ reviewedIds: ['s1', 's2', 's3'] });
    const user = userEvent.setup();
    const onReleased = vi.fn();
    renderWithProviders(<ReleaseButton assignmentId="a1" selectedIds={[]} reviewedCount={3} onReleased={onReleased} />);

    await user.click(screen.getByRole('button', { name: 'Release' }));
    const dialog = await screen.findByRole('dialog', { name: 'Release results to students' });
    expect(await within(dialog).findByText(/Email is not set up on this server/)).toBeInTheDocument();
    expect(within(dialog).queryByRole('checkbox', { name: 'Email each student a link' })).not.toBeInTheDocument();
    await user.click(await within(dialog).findByRole('button', { name: 'Release all reviewed (3)' }));

    await waitFor(() => expect(bodies.filter((b) => b.path !== 'list')).toEqual([{ path: 'release', body: { assignmentId: 'a1', sendEmail: false } }]));
    expect(await screen.findByText('Released 1 result. 1 skipped: not graded or reviewed yet.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(onReleased).toHaveBeenCalled();
  });

  it('says why each skipped result was left out: not reviewed, or not graded', async () => {
    setup({ skipped: { skipped: 7, skippedNotReviewed: 6, skippedNotGraded: 1 }, reviewedIds: ['s1'] });
    const user = userEvent.setup();
    renderWithProviders(<ReleaseButton assignmentId="a1" selectedIds={[]} reviewedCount={1} />);

    await user.click(screen.getByRole('button', { name: 'Release' }));
    const dialog = await screen.findByRole('dialog', { name: 'Release results to students' });
    await user.click(await within(dialog).findByRole('button', { name: 'Release all reviewed (1)' }));
    expect(
      await screen.findByText('Released 1 result. 6 skipped: not reviewed yet; 1 skipped: not graded yet.'),
    ).toBeInTheDocument();
  });

  it('releases the selected rows and emails them when the server has SMTP', async () => {
    const { bodies } = setup({ emailEnabled: true, gradedIds: ['s1', 's2'] });
    const user = userEvent.setup();
    renderWithProviders(<ReleaseButton assignmentId="a1" selectedIds={['s1', 's2']} reviewedCount={0} />);

    await user.click(screen.getByRole('button', { name: 'Release' }));
    const dialog = await screen.findByRole('dialog', { name: 'Release results to students' });
    const email = await within(dialog).findByRole('checkbox', { name: 'Email each student a link' });
    expect(email).toBeChecked();
    await user.click(await within(dialog).findByRole('button', { name: 'Release 2 selected' }));
    await waitFor(() =>
      expect(bodies.filter((b) => b.path !== 'list')).toEqual([{ path: 'release', body: { assignmentId: 'a1', submissionIds: ['s1', 's2'], sendEmail: true } }]),
    );
    expect(await screen.findByText(/Emailing 1 student\./)).toBeInTheDocument();
  });

  it('counts the selected rows as results, not students: one pupil’s two attempts are two results', async () => {
    const ids = ['s1', 's1b', 's2', 's3', 's4', 's5', 's6', 's7'];
    setup({ emailEnabled: true, gradedIds: ids });
    // Eight rows, two of them attempts by the same pupil (Ada): seven students.
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
      await within(dialog).findByText(/^The 8 selected results will be released: each student will get a private link to their result page\./),
    ).toBeInTheDocument();
    expect(within(dialog).queryByText(/selected students?/)).not.toBeInTheDocument();

    // Ada's two results are two links but one student emailed.
    await user.click(await within(dialog).findByRole('button', { name: 'Release 8 selected' }));
    expect(await screen.findByText('Released 3 results. Emailing 2 students.')).toBeInTheDocument();
  });

  it('says before releasing which selected results are skipped as not graded yet, and names the number released', async () => {
    // The teacher's walk: Ben's result is reviewed, Pia's not graded yet; both are selected.
    const { bodies } = setup({ reviewedIds: ['s-ben'], skipped: { skipped: 1, skippedNotReviewed: 0, skippedNotGraded: 1 } });
    const user = userEvent.setup();
    renderWithProviders(<ReleaseButton assignmentId="a1" selectedIds={['s-ben', 's-pia']} reviewedCount={1} />);

    await user.click(screen.getByRole('button', { name: 'Release' }));
    const dialog = await screen.findByRole('dialog', { name: 'Release results to students' });
    const button = await within(dialog).findByRole('button', { name: 'Release 1 of 2 selected' });
    expect(
      within(dialog).getByText(
        '1 of the 2 selected results will be released: its student will get a private link to their result page. ' +
          '1 is not graded yet and is skipped: only graded or reviewed results can be released. You can revoke a link at any time.',
      ),
    ).toBeInTheDocument();
    expect(within(dialog).queryByText(/The 2 selected results will be released/)).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Release 2 selected' })).not.toBeInTheDocument();

    // The release still asks for both: the server skips Pia's and the toast says so, as the dialog did.
    await user.click(button);
    await waitFor(() =>
      expect(bodies.filter((b) => b.path === 'release')).toEqual([{ path: 'release', body: { assignmentId: 'a1', submissionIds: ['s-ben', 's-pia'], sendEmail: false } }]),
    );
    expect(await screen.findByText('Released 1 result. 1 skipped: not graded yet.')).toBeInTheDocument();
  });

  it('counts graded results as released with reviewed ones, and the rest as skipped', async () => {
    // Ben reviewed, Cy graded, Pia and Dan not graded yet (Dan's grading failed).
    setup({ reviewedIds: ['s-ben'], gradedIds: ['s-cy'] });
    const user = userEvent.setup();
    renderWithProviders(<ReleaseButton assignmentId="a1" selectedIds={['s-ben', 's-cy', 's-pia', 's-dan']} reviewedCount={1} />);

    await user.click(screen.getByRole('button', { name: 'Release' }));
    const dialog = await screen.findByRole('dialog', { name: 'Release results to students' });
    expect(await within(dialog).findByRole('button', { name: 'Release 2 of 4 selected' })).toBeEnabled();
    expect(
      within(dialog).getByText(
        '2 of the 4 selected results will be released: each student will get a private link to their result page. ' +
          '2 are not graded yet and are skipped: only graded or reviewed results can be released. You can revoke a link at any time.',
      ),
    ).toBeInTheDocument();
  });

  it('turns the button off and says why when none of the selected results can be released', async () => {
    const { bodies } = setup({ reviewedIds: ['s-ben'] });
    const user = userEvent.setup();
    const { unmount } = renderWithProviders(<ReleaseButton assignmentId="a1" selectedIds={['s-pia']} reviewedCount={1} />);

    await user.click(screen.getByRole('button', { name: 'Release' }));
    let dialog = await screen.findByRole('dialog', { name: 'Release results to students' });
    let button = await within(dialog).findByRole('button', { name: 'Release 0 of 1 selected' });
    expect(button).toBeDisabled();
    const why =
      'Nothing to release: the selected result is not graded yet, and only graded or reviewed results can be released. Grade it first, or select other rows.';
    expect(within(dialog).getByText(why)).toBeInTheDocument();
    expect(button).toHaveAccessibleDescription(why);
    expect(within(dialog).queryByText(/will be released/)).not.toBeInTheDocument();
    unmount();

    renderWithProviders(<ReleaseButton assignmentId="a1" selectedIds={['s-pia', 's-dan']} reviewedCount={1} />);
    await user.click(screen.getByRole('button', { name: 'Release' }));
    dialog = await screen.findByRole('dialog', { name: 'Release results to students' });
    button = await within(dialog).findByRole('button', { name: 'Release 0 of 2 selected' });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription(
      'Nothing to release: the 2 selected results are not graded yet, and only graded or reviewed results can be released. Grade them first, or select other rows.',
    );
    expect(bodies.filter((b) => b.path === 'release')).toEqual([]);
  });

  it('counts the selection as the table does when its graded results cannot be read, and the server says what it skipped', async () => {
    setup({ reviewedIds: ['s-ben'], skipped: { skipped: 1, skippedNotReviewed: 0, skippedNotGraded: 1 } });
    server.use(
      http.post('/api/v1/db/assignment/submission-rows', async ({ request }) => {
        const { status } = (await request.json()) as { status?: string };
        if (status === 'graded') return HttpResponse.json({ error: { code: 'internal', message: 'Something went wrong.' } }, { status: 500 });
        return HttpResponse.json({ data: { rows: [], total: 1, submissionIds: ['s-ben'], reviewedIds: ['s-ben'], outdatedIds: [] } });
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<ReleaseButton assignmentId="a1" selectedIds={['s-ben', 's-pia']} reviewedCount={1} />);

    await user.click(screen.getByRole('button', { name: 'Release' }));
    const dialog = await screen.findByRole('dialog', { name: 'Release results to students' });
    await user.click(await within(dialog).findByRole('button', { name: 'Release 2 selected' }, { timeout: 10_000 }));
    expect(await screen.findByText('Released 1 result. 1 skipped: not graded yet.')).toBeInTheDocument();
  });

  it('words one selected row, and every reviewed result, as results that will be released', async () => {
    setup({ reviewedIds: ['s1', 's2', 's3', 's4', 's5'] });
    const user = userEvent.setup();
    const { unmount } = renderWithProviders(<ReleaseButton assignmentId="a1" selectedIds={['s1']} reviewedCount={0} />);
    await user.click(screen.getByRole('button', { name: 'Release' }));
    let dialog = await screen.findByRole('dialog', { name: 'Release results to students' });
    expect(await within(dialog).findByText(/^The selected result will be released: its student will get a private link/)).toBeInTheDocument();
    unmount();

    renderWithProviders(<ReleaseButton assignmentId="a1" selectedIds={[]} reviewedCount={5} />);
    await user.click(screen.getByRole('button', { name: 'Release' }));
    dialog = await screen.findByRole('dialog', { name: 'Release results to students' });
    expect(within(dialog).getByText(/^The 5 reviewed results will be released: each student will get a private link/)).toBeInTheDocument();
    // Nothing is released before the teacher presses the button: no sentence says it is.
    expect(within(dialog).queryByText(/results? (is|are) released:/)).not.toBeInTheDocument();
  });

  it('offers the links CSV only once a link is live, and says why before', async () => {
    setup();
    const user = userEvent.setup();
    const { unmount } = renderWithProviders(<ReleaseButton assignmentId="a1" selectedIds={['s1']} reviewedCount={0} />);
    await user.click(screen.getByRole('button', { name: 'Release' }));
    let dialog = await screen.findByRole('dialog', { name: 'Release results to students' });
    const hint = await within(dialog).findByText(/^No result is released yet, so there are no links to download\./);
    const csv = within(dialog).getByRole('button', { name: 'Download links (CSV)' });
    expect(csv).toBeDisabled();
    expect(csv).toHaveAccessibleDescription(hint.textContent ?? '');
    unmount();

    // Once a result is released its link is in the list: the button downloads it.
    setup({ releases: [{ submissionId: 's1', studentName: 'Ada', studentEmail: 'ada@pupils.test', state: 'released', link: LINK, email: 'none' }] });
    const names: string[] = [];
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:links');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    try {
      renderWithProviders(<ReleaseButton assignmentId="a1" selectedIds={[]} reviewedCount={0} />);
      await user.click(screen.getByRole('button', { name: 'Release' }));
      dialog = await screen.findByRole('dialog', { name: 'Release results to students' });
      const download = within(dialog).getByRole('button', { name: 'Download links (CSV)' });
      await waitFor(() => expect(download).toBeEnabled());
      expect(within(dialog).queryByText(/no links to download/)).not.toBeInTheDocument();
      await user.click(download);
      await waitFor(() => expect(names).toEqual(['Essay - links.csv']));
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('after releasing, counts only the reviewed results not released yet, and says when all are', async () => {
    // The teacher's walk: two reviewed results, both released.
    const released = (submissionId: string, studentName: string): Release => ({
      submissionId, studentName, studentEmail: '', state: 'released', link: `${LINK}-${submissionId}`, email: 'none',
    });
    const { bodies } = setup({ reviewedIds: ['s1', 's2'] });
    let list: Release[] = [];
    server.use(
      http.post('/api/v1/db/assignment/release/list', () => HttpResponse.json({ data: { releases: list } })),
      http.post('/api/v1/db/assignment/release', async ({ request }) => {
        const body = (await request.json()) as { submissionIds?: string[] };
        bodies.push({ path: 'release', body });
        const now = (body.submissionIds ?? ['s1', 's2']).map((id) => released(id, id === 's1' ? 'Ada' : 'Ben'));
        list = [...list.filter((r) => !now.some((n) => n.submissionId === r.submissionId)), ...now];
        return HttpResponse.json({ data: { releases: now, skipped: 0 } });
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<ReleaseButton assignmentId="a1" selectedIds={[]} reviewedCount={2} />);
    await user.click(screen.getByRole('button', { name: 'Release' }));
    let dialog = await screen.findByRole('dialog', { name: 'Release results to students' });
    await user.click(await within(dialog).findByRole('button', { name: 'Release all reviewed (2)' }));
    expect(await screen.findByText('Released 2 results.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    // Opened again: nothing left to release, and it says so; the links can be downloaded now.
    await user.click(screen.getByRole('button', { name: 'Release' }));
    dialog = await screen.findByRole('dialog', { name: 'Release results to students' });
    expect(await within(dialog).findByRole('button', { name: 'Release all reviewed (0)' })).toBeDisabled();
    expect(within(dialog).queryByRole('button', { name: 'Release all reviewed (2)' })).not.toBeInTheDocument();
    expect(within(dialog).getByText(/^Already released: all 2 reviewed results are released/)).toBeInTheDocument();
    expect(within(dialog).queryByText(/will be released/)).not.toBeInTheDocument();
    expect(within(dialog).queryByText(/No result is reviewed yet/)).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Download links (CSV)' })).toBeEnabled();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    // Ben's link revoked, a third result reviewed: only those two are counted and released, Ada's
    // result is not asked for again (it would be emailed again).
    list = [released('s1', 'Ada'), { ...released('s2', 'Ben'), state: 'revoked', link: undefined }];
    server.use(
      http.post('/api/v1/db/assignment/submission-rows', () =>
        HttpResponse.json({ data: { rows: [], total: 3, submissionIds: ['s1', 's2', 's3'], reviewedIds: ['s1', 's2', 's3'], outdatedIds: [] } }),
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Release' }));
    dialog = await screen.findByRole('dialog', { name: 'Release results to students' });
    const releaseTwo = await within(dialog).findByRole('button', { name: 'Release all reviewed (2)' });
    expect(within(dialog).getByText(/^The 2 reviewed results will be released/)).toBeInTheDocument();
    expect(within(dialog).getByText('1 other reviewed result is already released: it keeps its link and is not counted or emailed again.')).toBeInTheDocument();
    await user.click(releaseTwo);
    expect(await screen.findByText('Released 2 results. 1 was released already.')).toBeInTheDocument();
    expect(bodies.filter((b) => b.path === 'release').map((b) => b.body)).toEqual([
      { assignmentId: 'a1', sendEmail: false },
      { assignmentId: 'a1', submissionIds: ['s2', 's3'], sendEmail: false },
    ]);
  });

  it('shows the server’s sentence when nothing can be released, and keeps the dialog open', async () => {
    // Graded when the dialog opened, graded again since: the server finds nothing to release.
    setup({ gradedIds: ['s9'] });
    server.use(
      http.post('/api/v1/db/assignment/release', () =>
        HttpResponse.json({ error: { code: 'invalid', message: 'Nothing to release: only graded, annotated or reviewed results can be released.' } }, { status: 400 }),
      ),
    );
    const user = userEvent.setup();
    renderWithProviders(<ReleaseButton assignmentId="a1" selectedIds={['s9']} reviewedCount={0} />);
    await user.click(screen.getByRole('button', { name: 'Release' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(await within(dialog).findByRole('button', { name: 'Release 1 selected' }));
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
