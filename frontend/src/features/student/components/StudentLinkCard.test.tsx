import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '../../../testing/server';
import { renderWithProviders } from '../../../testing/test-utils';
import type { StudentLink } from '../api/types';
import { apiError } from '../testing/fixtures';
import { StudentLinkCard } from './StudentLinkCard';

/** A fake backend for one assignment's link: records update bodies and answers like the server. */
function setup(initial: StudentLink = { enabled: true, token: 'tok-1', allowResubmission: false }) {
  let link = initial;
  const updates: unknown[] = [];
  server.use(
    http.post('/api/v1/db/assignment/student-link/get', async ({ request }) => {
      const { assignmentId } = (await request.json()) as { assignmentId: string };
      if (assignmentId !== 'a1') return apiError(404, 'not_found', 'Not found');
      return HttpResponse.json({ data: link });
    }),
    http.post('/api/v1/db/assignment/student-link/update', async ({ request }) => {
      const body = (await request.json()) as { enabled?: boolean; rotate?: boolean; allowResubmission?: boolean };
      updates.push(body);
      link = {
        enabled: body.enabled ?? link.enabled,
        token: body.rotate ? `tok-${updates.length + 1}` : link.token,
        allowResubmission: body.allowResubmission ?? link.allowResubmission,
      };
      return HttpResponse.json({ data: link });
    }),
  );
  const user = userEvent.setup();
  renderWithProviders(<StudentLinkCard assignmentId="a1" />);
  return { user, updates };
}

describe('StudentLinkCard', () => {
  it('shows the link and copies it', async () => {
    const { user } = setup();

    const field = await screen.findByRole('textbox', { name: 'Student link' });
    expect(field).toHaveValue('http://localhost:3000/submit/tok-1');
    expect(field).toHaveAttribute('readonly');
    expect(screen.getByText(/can submit their work without signing in/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Copy link' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Link copied');
    // user-event stands in for the system clipboard.
    await expect(navigator.clipboard.readText()).resolves.toBe('http://localhost:3000/submit/tok-1');
  });

  it('turns the link off and says students cannot submit', async () => {
    const { user, updates } = setup();
    const toggle = await screen.findByRole('switch', { name: 'Accept submissions through this link' });
    expect(toggle).toBeChecked();

    await user.click(toggle);

    expect(await screen.findByText('This link is turned off: students cannot submit through it.')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Accept submissions through this link' })).not.toBeChecked();
    expect(screen.getByRole('alert')).toHaveTextContent('Student link turned off');
    expect(updates).toEqual([{ assignmentId: 'a1', enabled: false }]);
  });

  it('turns a link that is off back on', async () => {
    const { user, updates } = setup({ enabled: false, token: 'tok-1', allowResubmission: false });
    expect(await screen.findByText(/students cannot submit through it/)).toBeInTheDocument();

    await user.click(screen.getByRole('switch', { name: 'Accept submissions through this link' }));

    expect(await screen.findByText(/can submit their work without signing in/)).toBeInTheDocument();
    expect(updates).toEqual([{ assignmentId: 'a1', enabled: true }]);
  });

  it('lets students submit again when the teacher allows resubmission, and stops it again', async () => {
    const { user, updates } = setup();
    const toggle = await screen.findByRole('switch', { name: 'Allow resubmission' });
    expect(toggle).not.toBeChecked();
    expect(toggle).toHaveAccessibleDescription('Each student (by email) can submit once. Turn this on to let students submit again.');

    await user.click(toggle);

    expect(await screen.findByRole('alert')).toHaveTextContent('Students can now submit again');
    expect(screen.getByRole('switch', { name: 'Allow resubmission' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Allow resubmission' })).toHaveAccessibleDescription(
      'A student who submits again keeps their earlier work: the new submission is listed as their next attempt.',
    );
    expect(screen.getByRole('switch', { name: 'Accept submissions through this link' })).toBeChecked();
    expect(updates).toEqual([{ assignmentId: 'a1', allowResubmission: true }]);

    await user.click(screen.getByRole('switch', { name: 'Allow resubmission' }));

    await waitFor(() => expect(screen.getByRole('switch', { name: 'Allow resubmission' })).not.toBeChecked());
    expect(updates).toEqual([
      { assignmentId: 'a1', allowResubmission: true },
      { assignmentId: 'a1', allowResubmission: false },
    ]);
  });

  it('shows resubmission on when the server says so', async () => {
    setup({ enabled: true, token: 'tok-1', allowResubmission: true });
    expect(await screen.findByRole('switch', { name: 'Allow resubmission' })).toBeChecked();
  });

  it('creates a new link only after confirmation', async () => {
    const { user, updates } = setup();
    await screen.findByRole('textbox', { name: 'Student link' });

    await user.click(screen.getByRole('button', { name: 'Create a new link' }));
    let dialog = await screen.findByRole('dialog', { name: 'Create a new link?' });
    expect(dialog).toHaveTextContent('The current link will stop working.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(updates).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Create a new link' }));
    dialog = await screen.findByRole('dialog', { name: 'Create a new link?' });
    await user.click(within(dialog).getByRole('button', { name: 'Create new link' }));

    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Student link' })).toHaveValue('http://localhost:3000/submit/tok-2'),
    );
    expect(screen.getByRole('alert')).toHaveTextContent('New link created. The old link no longer works.');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(updates).toEqual([{ assignmentId: 'a1', rotate: true }]);
  });

  it('keeps the link as it was and says so when a change fails', async () => {
    const { user } = setup();
    server.use(http.post('/api/v1/db/assignment/student-link/update', () => HttpResponse.json({}, { status: 500 })));
    const toggle = await screen.findByRole('switch', { name: 'Accept submissions through this link' });

    await user.click(toggle);

    expect(await screen.findByRole('alert')).toHaveTextContent("Couldn't change the link. Please try again.");
    expect(screen.getByRole('switch', { name: 'Accept submissions through this link' })).toBeChecked();
  });
});
