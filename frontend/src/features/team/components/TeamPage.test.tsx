import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '../../../lib/current-user';
import { TEST_CSRF_TOKEN, TEST_MEMBERS, TEST_USER } from '../../../testing/handlers';
import { server } from '../../../testing/server';
import { renderApp } from '../../../testing/test-utils';
import type { TeamMembers } from '../api/get-members';

/** An in-memory team server: the page's writes change what its reads return. */
function fakeTeamServer({ user = TEST_USER, team = TEST_MEMBERS }: { user?: CurrentUser; team?: TeamMembers } = {}) {
  const state = {
    user: structuredClone(user),
    team: structuredClone(team),
    csrfHeaders: [] as (string | null)[],
    nextInvite: 1,
  };
  const fail = (status: number, message: string) => HttpResponse.json({ error: { code: 'invalid', message } }, { status });
  server.use(
    http.get('/api/v1/db/user/get', () => HttpResponse.json({ data: { user: state.user } })),
    http.get('/api/v1/db/team/members', () => HttpResponse.json({ data: state.team })),
    http.post('/api/v1/db/team/invite', async ({ request }) => {
      state.csrfHeaders.push(request.headers.get('X-CSRF-Token'));
      const { email } = (await request.json()) as { email: string };
      if (state.team.members.some((m) => m.email === email)) return fail(400, 'This person is already a member of your team.');
      if (state.team.invites.some((i) => i.email === email)) return fail(400, 'This email has already been invited.');
      const id = `i${state.nextInvite++}`;
      const invite = { _id: id, kind: 'email' as const, email, createdAt: '2025-03-14T09:00:00Z', expiresAt: null };
      state.team.invites.push(invite);
      return HttpResponse.json({ data: { invite: { ...invite, url: `http://localhost:3000/invite/token-${id}` } } });
    }),
    http.post('/api/v1/db/team/invite-link', async ({ request }) => {
      state.csrfHeaders.push(request.headers.get('X-CSRF-Token'));
      if (state.user._id !== state.user.team.ownerId) {
        return HttpResponse.json({ error: { code: 'forbidden', message: "Only the team's owner can create invitation links." } }, { status: 403 });
      }
      const id = `i${state.nextInvite++}`;
      const invite = { _id: id, kind: 'link' as const, email: '', createdAt: '2025-03-14T09:00:00Z', expiresAt: '2025-03-21T09:00:00Z' };
      state.team.invites.push(invite);
      return HttpResponse.json({ data: { invite: { ...invite, url: `http://localhost:3000/invite/token-${id}` } } });
    }),
    http.post('/api/v1/db/team/cancel-invite', async ({ request }) => {
      const { inviteId } = (await request.json()) as { inviteId: string };
      const invite = state.team.invites.find((i) => i._id === inviteId);
      if (invite?.kind === 'link' && state.user._id !== state.user.team.ownerId) {
        return HttpResponse.json({ error: { code: 'forbidden', message: "Only the team's owner can revoke invitation links." } }, { status: 403 });
      }
      state.team.invites = state.team.invites.filter((i) => i._id !== inviteId);
      return HttpResponse.json({ data: {} });
    }),
    http.post('/api/v1/db/team/remove-member', async ({ request }) => {
      const { userId } = (await request.json()) as { userId: string };
      if (state.user._id !== state.user.team.ownerId) return HttpResponse.json({ error: { code: 'forbidden', message: 'Only the team owner can remove members.' } }, { status: 403 });
      state.team.members = state.team.members.filter((m) => m._id !== userId);
      return HttpResponse.json({ data: {} });
    }),
    http.post('/api/v1/db/team/leave', () => {
      state.user.team = { _id: 't9', name: "Grace Hopper's team", ownerId: state.user._id, assignments: [], rubrics: [], folders: [] };
      state.team = { members: [{ _id: state.user._id, name: state.user.name, email: state.user.email, isOwner: true }], invites: [] };
      return HttpResponse.json({ data: {} });
    }),
  );
  return state;
}

/** Grace's view: a member, not the owner, of Ada's team. */
const GRACE: CurrentUser = { ...TEST_USER, _id: 'u2', name: 'Grace Hopper', email: 'grace@school.org' };

function memberRow(name: string) {
  const list = screen.getByRole('list', { name: 'Members' });
  const row = within(list).getAllByRole('listitem').find((item) => item.textContent?.includes(name));
  if (!row) throw new Error(`no member row for ${name}`);
  return row;
}

function inviteRow(email: string) {
  const list = screen.getByRole('list', { name: 'Pending invitations' });
  const row = within(list).getAllByRole('listitem').find((item) => item.textContent?.includes(email));
  if (!row) throw new Error(`no invitation row for ${email}`);
  return row;
}

const LINK_EXPIRY = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date('2025-03-21T09:00:00Z'));

/** A team with an email invitation and an invitation link pending. */
const WITH_LINK: TeamMembers = {
  ...TEST_MEMBERS,
  invites: [
    { _id: 'i7', kind: 'email', email: 'mary@school.org', createdAt: '2025-03-01T10:00:00Z', expiresAt: null },
    { _id: 'i8', kind: 'link', email: '', createdAt: '2025-03-14T09:00:00Z', expiresAt: '2025-03-21T09:00:00Z' },
  ],
};

function linkRow() {
  const list = screen.getByRole('list', { name: 'Pending invitations' });
  const row = within(list).getAllByRole('listitem').find((item) => item.textContent?.includes('Invitation link'));
  if (!row) throw new Error('no invitation link row');
  return row;
}

describe('team page', () => {
  it('shows the team name and its members, with the owner marked', async () => {
    fakeTeamServer();
    renderApp('/team');

    expect(await screen.findByRole('heading', { level: 1, name: 'Team' })).toBeInTheDocument();
    expect(document.title).toBe('Team · Markwell');
    expect(screen.getByText('Year 9 English · 2 members')).toBeInTheDocument();

    const ada = memberRow('Ada Lovelace');
    expect(ada).toHaveTextContent('ada@school.org');
    expect(within(ada).getByText('Owner')).toBeInTheDocument();
    expect(within(ada).getByText('You')).toBeInTheDocument();
    const grace = memberRow('Grace Hopper');
    expect(grace).toHaveTextContent('grace@school.org');
    expect(within(grace).queryByText('Owner')).not.toBeInTheDocument();
    expect(screen.getByText('No pending invitations.')).toBeInTheDocument();
  });

  it('lets the owner remove another member after confirming', async () => {
    const user = userEvent.setup();
    const state = fakeTeamServer();
    renderApp('/team');
    await screen.findByRole('list', { name: 'Members' });

    expect(within(memberRow('Ada Lovelace')).queryByRole('button', { name: /remove/i })).not.toBeInTheDocument();
    await user.click(within(memberRow('Grace Hopper')).getByRole('button', { name: 'Remove Grace Hopper' }));

    const dialog = await screen.findByRole('dialog', { name: 'Remove Grace Hopper?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(state.team.members).toHaveLength(2);

    await user.click(within(memberRow('Grace Hopper')).getByRole('button', { name: 'Remove Grace Hopper' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Grace Hopper was removed from the team');
    await waitFor(() => expect(screen.queryByText('grace@school.org')).not.toBeInTheDocument());
    expect(screen.getByText('Year 9 English · 1 member')).toBeInTheDocument();
  });

  it('offers no Remove action to a member who is not the owner', async () => {
    fakeTeamServer({ user: GRACE });
    renderApp('/team');
    await screen.findByRole('list', { name: 'Members' });

    expect(screen.queryByRole('button', { name: /^remove/i })).not.toBeInTheDocument();
    expect(within(memberRow('Grace Hopper')).getByText('You')).toBeInTheDocument();
    expect(within(memberRow('Ada Lovelace')).getByText('Owner')).toBeInTheDocument();
  });

  it('invites a colleague: a toast, the pending invitation, and a link to copy', async () => {
    const user = userEvent.setup();
    const state = fakeTeamServer();
    renderApp('/team');

    const form = await screen.findByRole('form', { name: 'Invite a colleague' });
    await user.type(within(form).getByRole('textbox', { name: 'Email address' }), 'katherine@school.org');
    await user.click(within(form).getByRole('button', { name: 'Invite' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Invitation sent to katherine@school.org');
    const row = await waitFor(() => inviteRow('katherine@school.org'));
    expect(within(form).getByRole('textbox', { name: 'Email address' })).toHaveValue('');
    expect(state.csrfHeaders).toEqual([TEST_CSRF_TOKEN]);

    await user.click(within(row).getByRole('button', { name: 'Copy link for katherine@school.org' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Invitation link for katherine@school.org copied');
    // user-event stands in for the system clipboard.
    await expect(navigator.clipboard.readText()).resolves.toBe('http://localhost:3000/invite/token-i1');
  });

  it('checks the email before inviting', async () => {
    const user = userEvent.setup();
    const state = fakeTeamServer();
    renderApp('/team');

    const form = await screen.findByRole('form', { name: 'Invite a colleague' });
    await user.click(within(form).getByRole('button', { name: 'Invite' }));
    expect(within(form).getByText('Enter an email address.')).toBeInTheDocument();

    await user.type(within(form).getByRole('textbox', { name: 'Email address' }), 'katherine{Enter}');
    expect(within(form).getByText('Enter a valid email address, like name@school.org.')).toBeInTheDocument();
    expect(state.team.invites).toEqual([]);
  });

  it("shows the server's message when an invitation is refused", async () => {
    const user = userEvent.setup();
    fakeTeamServer();
    renderApp('/team');

    const form = await screen.findByRole('form', { name: 'Invite a colleague' });
    await user.type(within(form).getByRole('textbox', { name: 'Email address' }), 'grace@school.org{Enter}');

    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('This person is already a member of your team.');
    expect(within(toast).getByRole('img', { name: 'Error' })).toBeInTheDocument();
    expect(within(form).getByRole('textbox', { name: 'Email address' })).toHaveValue('grace@school.org');
  });

  it('cancels a pending invitation', async () => {
    const user = userEvent.setup();
    const state = fakeTeamServer({
      team: { ...TEST_MEMBERS, invites: [{ _id: 'i7', kind: 'email', email: 'mary@school.org', createdAt: '2025-03-01T10:00:00Z', expiresAt: null }] },
    });
    renderApp('/team');

    const row = await waitFor(() => inviteRow('mary@school.org'));
    // The server hands out links only when inviting, so an older invitation has none to copy.
    expect(within(row).queryByRole('button', { name: /copy link/i })).not.toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: 'Cancel invitation for mary@school.org' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Invitation to mary@school.org cancelled');
    expect(await screen.findByText('No pending invitations.')).toBeInTheDocument();
    expect(state.team.invites).toEqual([]);
  });

  it('lists pending email invitations and invitation links with their expiry', async () => {
    fakeTeamServer({ team: WITH_LINK });
    renderApp('/team');

    const mary = await waitFor(() => inviteRow('mary@school.org'));
    expect(mary).toHaveTextContent(/Invited/);
    const link = linkRow();
    expect(link).toHaveTextContent(`Expires ${LINK_EXPIRY}`);
    // An older link's address is not known to this page, so there is nothing to copy.
    expect(within(link).queryByRole('button', { name: /copy/i })).not.toBeInTheDocument();
  });

  it('lets the owner create an invitation link, copy it, and see it pending with its expiry', async () => {
    const user = userEvent.setup();
    const state = fakeTeamServer();
    renderApp('/team');

    const section = await screen.findByRole('region', { name: 'Invite with a link' });
    await user.click(within(section).getByRole('button', { name: 'Create invitation link' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Invitation link created');
    expect(state.csrfHeaders).toEqual([TEST_CSRF_TOKEN]);
    expect(within(section).getByRole('textbox', { name: 'New invitation link' })).toHaveValue('http://localhost:3000/invite/token-i1');
    expect(within(section).getByText(`Works once, until ${LINK_EXPIRY}.`)).toBeInTheDocument();

    await user.click(within(section).getByRole('button', { name: 'Copy link' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Invitation link copied'));
    await expect(navigator.clipboard.readText()).resolves.toBe('http://localhost:3000/invite/token-i1');

    // The pending list shows it too, with its expiry and its link.
    const row = await waitFor(() => linkRow());
    expect(row).toHaveTextContent(`Expires ${LINK_EXPIRY}`);
    expect(within(row).getByRole('button', { name: `Copy invitation link expiring ${LINK_EXPIRY}` })).toHaveAttribute(
      'data-invite-url',
      'http://localhost:3000/invite/token-i1',
    );
  });

  it('lets the owner revoke an invitation link', async () => {
    const user = userEvent.setup();
    const state = fakeTeamServer({ team: WITH_LINK });
    renderApp('/team');

    const row = await waitFor(() => linkRow());
    await user.click(within(row).getByRole('button', { name: `Revoke invitation link expiring ${LINK_EXPIRY}` }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Invitation link revoked');
    await waitFor(() => expect(screen.queryByText(/Expires/)).not.toBeInTheDocument());
    expect(state.team.invites.map((i) => i._id)).toEqual(['i7']);
  });

  it('shows a member who is not the owner no way to make or revoke links, but lets them cancel email invitations', async () => {
    const user = userEvent.setup();
    const state = fakeTeamServer({ user: GRACE, team: WITH_LINK });
    renderApp('/team');

    const link = await waitFor(() => linkRow());
    expect(screen.queryByRole('region', { name: 'Invite with a link' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /create invitation link/i })).not.toBeInTheDocument();
    expect(within(link).queryByRole('button', { name: /revoke/i })).not.toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Invite a colleague' })).toBeInTheDocument();

    await user.click(within(inviteRow('mary@school.org')).getByRole('button', { name: 'Cancel invitation for mary@school.org' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invitation to mary@school.org cancelled');
    await waitFor(() => expect(state.team.invites.map((i) => i._id)).toEqual(['i8']));
  });

  it("shows the server's message when a link cannot be created", async () => {
    const user = userEvent.setup();
    fakeTeamServer();
    server.use(
      http.post('/api/v1/db/team/invite-link', () =>
        HttpResponse.json({ error: { code: 'forbidden', message: "Only the team's owner can create invitation links." } }, { status: 403 }),
      ),
    );
    renderApp('/team');

    const section = await screen.findByRole('region', { name: 'Invite with a link' });
    await user.click(within(section).getByRole('button', { name: 'Create invitation link' }));

    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent("Only the team's owner can create invitation links.");
    expect(within(toast).getByRole('img', { name: 'Error' })).toBeInTheDocument();
    expect(within(section).queryByRole('textbox')).not.toBeInTheDocument();
  });

  it('leaves the team after confirming, then shows the new team', async () => {
    const user = userEvent.setup();
    fakeTeamServer({ user: GRACE });
    renderApp('/team');

    await user.click(await screen.findByRole('button', { name: 'Leave team' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave Year 9 English?' });
    await user.click(within(dialog).getByRole('button', { name: 'Leave team' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('You left the team');
    expect(await screen.findByText("Grace Hopper's team · 1 member")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('keeps a lone member from leaving a team of one', async () => {
    fakeTeamServer({ team: { members: [TEST_MEMBERS.members[0]], invites: [] } });
    renderApp('/team');

    expect(await screen.findByRole('button', { name: 'Leave team' })).toBeDisabled();
    expect(screen.getByText("You're the only member of this team, so there is nothing to leave.")).toBeInTheDocument();
  });

  it('says so when the team cannot be loaded, and retries', async () => {
    const user = userEvent.setup();
    server.use(http.get('/api/v1/db/team/members', () => HttpResponse.json({ error: { code: 'forbidden', message: 'no' } }, { status: 403 })));
    renderApp('/team');

    expect(await screen.findByText("We couldn't load your team.")).toBeInTheDocument();
    fakeTeamServer();
    await user.click(screen.getByRole('button', { name: 'Try again' }));

    expect(await screen.findByText('Year 9 English · 2 members')).toBeInTheDocument();
  });
});
