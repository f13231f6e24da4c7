import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { server } from '../../../testing/server';
import { pageReload } from '../page-reload';
import { PENDING_TOAST_KEY } from '../pending-toast';
import { fakeBackend, renderLibrary } from '../testing/render';
import type { ShareNotification } from '../types';
import { NotificationsBell } from './NotificationsBell';

const notifications: ShareNotification[] = [
  {
    _id: 'n1',
    kind: 'shared-assignment',
    status: 'open',
    sender: { name: 'Grace Hopper', email: 'grace@other.org' },
    item: { _id: 'a9', name: 'Lab safety quiz', type: 'grade' },
    createdAt: '2026-03-01T10:00:00Z',
  },
  {
    _id: 'n2',
    kind: 'shared-rubric',
    status: 'open',
    sender: { name: '', email: 'alan@other.org' },
    item: { _id: 'r9', name: 'Debate rubric' },
    createdAt: '2026-03-01T09:00:00Z',
  },
  {
    _id: 'n3',
    kind: 'shared-rubric',
    status: 'closed',
    sender: { name: 'Old', email: 'old@other.org' },
    item: { _id: 'r8', name: 'Old rubric' },
    createdAt: '2026-02-01T09:00:00Z',
  },
];

function renderBell() {
  const backend = fakeBackend({ assignments: [], rubrics: [], folders: [] }, { notifications });
  const reload = vi.spyOn(pageReload, 'reload').mockImplementation(() => {});
  return { ...renderLibrary(<NotificationsBell />), backend, reload };
}

describe('notifications bell', { timeout: 30_000 }, () => {
  it('shows the number of open notifications', async () => {
    renderBell();
    const bell = await screen.findByRole('button', { name: 'Notifications, 2 new' });
    expect(bell).toHaveTextContent('2');
  });

  it('shows no hidden count when nothing is new: the button holds no text beyond its name', async () => {
    fakeBackend({ assignments: [], rubrics: [], folders: [] }, { notifications: [notifications[2]] });
    renderLibrary(<NotificationsBell />);
    const bell = await screen.findByRole('button', { name: 'Notifications' });
    expect(bell.textContent).toBe('');
  });

  it('lists what was shared and copies an assignment with the right route, then reloads', async () => {
    const { backend, reload } = renderBell();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Notifications, 2 new' }));

    const panel = await screen.findByRole('dialog', { name: 'Notifications' });
    const items = within(panel).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Grace Hopper shared Lab safety quiz with you');
    expect(items[1]).toHaveTextContent('alan@other.org shared Debate rubric with you');

    await user.click(within(items[0]).getByRole('button', { name: 'Copy to my library' }));

    expect(await screen.findByText('Assignment copied successfully')).toBeInTheDocument();
    expect(backend.calls).toContainEqual({
      path: 'notification/copySharedAssignment',
      body: { notificationId: 'n1', status: 'closed' },
    });
    expect(reload).toHaveBeenCalledTimes(1);
    expect(JSON.parse(sessionStorage.getItem(PENDING_TOAST_KEY) ?? 'null')).toEqual({
      type: 'success',
      message: 'Assignment copied successfully',
    });
    sessionStorage.clear();
  });

  it('copies a rubric with copySharedRubric', async () => {
    const { backend, reload } = renderBell();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Notifications/ }));
    const items = within(await screen.findByRole('dialog', { name: 'Notifications' })).getAllByRole('listitem');
    await user.click(within(items[1]).getByRole('button', { name: 'Copy to my library' }));

    expect(await screen.findByText('Rubric copied successfully')).toBeInTheDocument();
    expect(backend.bodies('notification/copySharedRubric')).toEqual([{ notificationId: 'n2', status: 'closed' }]);
    expect(reload).toHaveBeenCalledTimes(1);
    sessionStorage.clear();
  });

  it('copies once when "Copy to my library" is clicked twice quickly, and says it worked', async () => {
    const { reload } = renderBell();
    // As the server does: a second copy of the same notification is refused.
    let copies = 0;
    server.use(
      http.post('/api/v1/db/notification/copySharedRubric', () =>
        ++copies === 1
          ? HttpResponse.json({ data: { rubric: {} } })
          : HttpResponse.json({ error: { code: 'invalid', message: 'This item has already been copied.' } }, { status: 400 }),
      ),
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Notifications/ }));
    const items = within(await screen.findByRole('dialog', { name: 'Notifications' })).getAllByRole('listitem');

    const copy = within(items[1]).getByRole('button', { name: 'Copy to my library' });
    fireEvent.click(copy);
    fireEvent.click(copy);

    expect(await screen.findByText('Rubric copied successfully')).toBeInTheDocument();
    expect(copies).toBe(1);
    expect(screen.queryByText('This item has already been copied.')).not.toBeInTheDocument();
    expect(reload).toHaveBeenCalledTimes(1);
    sessionStorage.clear();
  });

  it("shows the server's message when copying fails, and does not reload", async () => {
    const { reload } = renderBell();
    server.use(
      http.post('/api/v1/db/notification/copySharedAssignment', () =>
        HttpResponse.json({ error: { code: 'invalid', message: 'This item has already been copied.' } }, { status: 400 }),
      ),
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Notifications/ }));
    const items = within(await screen.findByRole('dialog', { name: 'Notifications' })).getAllByRole('listitem');
    await user.click(within(items[0]).getByRole('button', { name: 'Copy to my library' }));

    expect(await screen.findByText('This item has already been copied.')).toBeInTheDocument();
    expect(reload).not.toHaveBeenCalled();
  });

  it('dismisses a notification', async () => {
    const { backend } = renderBell();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Notifications/ }));
    const items = within(await screen.findByRole('dialog', { name: 'Notifications' })).getAllByRole('listitem');
    await user.click(within(items[1]).getByRole('button', { name: 'Dismiss' }));

    await waitFor(() => expect(backend.bodies('notification/dismiss')).toEqual([{ notificationId: 'n2' }]));
  });
});
