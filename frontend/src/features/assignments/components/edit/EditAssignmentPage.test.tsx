import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '../../../../testing/server';
import type { Assignment, AssignmentFunction } from '../../api/types';
import { mockAssignment, mockAuthoringApi } from '../../testing/api-mocks';
import { fill } from '../../testing/fill';
import { renderAssignments } from '../../testing/render';

const ID = 'a2222222-2222-4222-8222-222222222222';

const ASSIGNMENT: Assignment = {
  _id: ID,
  name: 'Causes of WW1',
  type: 'grade',
  isHandWritten: false,
  provideInstantFeedback: false,
  folderId: null,
  classSummary: null,
  submissions: [],
  createdAt: '2025-02-01T10:00:00Z',
  updatedAt: '2025-02-01T10:00:00Z',
};

const FUNCTION: AssignmentFunction = {
  _id: 'f1',
  assignmentId: ID,
  type: 'grade',
  questions: [
    {
      id: 'q1',
      questionText: 'Explain the causes.',
      context: '',
      rubricId: null,
      criteria: [{ id: 'c1', description: 'Names two causes', points: 2 }],
      subquestions: [],
    },
  ],
};

async function openEditor() {
  const api = mockAuthoringApi();
  mockAssignment(ASSIGNMENT, FUNCTION);
  const rendered = renderAssignments(`/assignment/${ID}/edit`);
  expect(await screen.findByRole('heading', { name: 'Edit assignment', level: 1 })).toBeInTheDocument();
  return { ...rendered, api };
}

function points() {
  return within(screen.getByRole('region', { name: 'Question 1' })).getByRole('spinbutton', { name: 'Points' });
}

describe('edit assignment page: unsaved changes', { timeout: 60_000 }, () => {
  it('leaves without asking while nothing has changed', async () => {
    const { router } = await openEditor();
    await act(() => router.navigate('/library'));
    expect(await screen.findByRole('heading', { name: 'Library page' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('asks before leaving with a changed criterion: Keep editing stays, Discard leaves', async () => {
    const user = userEvent.setup({ delay: null });
    const { router } = await openEditor();
    await fill(points(), '5');

    // Cancel, a link to the assignment page, asks.
    await user.click(screen.getByRole('link', { name: 'Cancel' }));
    const dialog = await screen.findByRole('dialog', { name: 'Discard your changes?' });
    const keep = within(dialog).getByRole('button', { name: 'Keep editing' });
    expect(keep).toHaveFocus();
    await user.click(keep);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(router.state.location.pathname).toBe(`/assignment/${ID}/edit`);
    expect(points()).toHaveValue(5);

    // The browser's Back asks too; Discard leaves.
    await act(() => router.navigate(-1));
    const again = await screen.findByRole('dialog', { name: 'Discard your changes?' });
    expect(router.state.location.pathname).toBe(`/assignment/${ID}/edit`);
    await user.click(within(again).getByRole('button', { name: 'Discard' }));
    expect(await screen.findByRole('heading', { name: 'Library page' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/library');
  });

  it('asks when the tab is closed or reloaded with changes, not before', async () => {
    await openEditor();
    const before = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(before);
    expect(before.defaultPrevented).toBe(false);

    await fill(screen.getByRole('textbox', { name: 'Assignment name' }), 'Causes of the First World War');
    const after = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(after);
    expect(after.defaultPrevented).toBe(true);
  });

  it('saves and leaves for the assignment page without asking', async () => {
    const user = userEvent.setup({ delay: null });
    const { router, api } = await openEditor();
    await fill(points(), '5');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    await waitFor(() => expect(router.state.location.pathname).toBe(`/assignment/${ID}`));
    expect(api.paths()).toEqual(['function/update']);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

/** The class's releases as `db/assignment/release/list` answers: `released` live links, then a revoked and a not released one. */
function mockReleases(released: number) {
  const asked: unknown[] = [];
  const row = (i: number, state: string) => ({ submissionId: `s${i}`, studentName: `Pupil ${i}`, studentEmail: '', state, email: 'none' });
  server.use(
    http.post('/api/v1/db/assignment/release/list', async ({ request }) => {
      asked.push(await request.json());
      const releases = [
        ...Array.from({ length: released }, (_, i) => ({ ...row(i, 'released'), link: `https://markwell.test/results/t${i}` })),
        row(90, 'revoked'),
        row(91, 'not-released'),
      ];
      return HttpResponse.json({ data: { releases } });
    }),
  );
  return asked;
}

describe('edit assignment page: results released to students', { timeout: 60_000 }, () => {
  const NOTE =
    '3 results are released to students: they will see any change you save here at once ' +
    '(anything added is not marked until the work is graded again).';

  it('says that released results will change, asks before saving, and still saves', async () => {
    const asked = mockReleases(3);
    const user = userEvent.setup({ delay: null });
    const { router, api } = await openEditor();

    // The teacher's walk: three results released (a revoked link is not counted).
    expect(await screen.findByText(NOTE)).toBeInTheDocument();
    expect(asked).toEqual([{ assignmentId: ID }]);

    // Rename, change a criterion's points, Save: nothing is saved before the teacher confirms.
    await fill(screen.getByRole('textbox', { name: 'Assignment name' }), 'Causes of the First World War');
    await fill(points(), '4');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    let dialog = await screen.findByRole('dialog', { name: 'Students will see these changes' });
    expect(dialog).toHaveAccessibleDescription(
      '3 results are released to students: they will see these changes at once ' +
        '(anything added is not marked until the work is graded again). Save them now?',
    );
    expect(api.paths()).toEqual([]);

    // Keep editing stays, with the changes.
    await user.click(within(dialog).getByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(router.state.location.pathname).toBe(`/assignment/${ID}/edit`);
    expect(points()).toHaveValue(4);
    expect(api.paths()).toEqual([]);

    // Saving stays possible.
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    dialog = await screen.findByRole('dialog', { name: 'Students will see these changes' });
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/assignment/${ID}`));
    expect(api.paths()).toEqual(['function/update']);
    expect(await screen.findByText('Changes saved. The 3 released results show them now.')).toBeInTheDocument();
  });

  it('says one released result in the singular', async () => {
    mockReleases(1);
    await openEditor();
    expect(
      await screen.findByText(
        '1 result is released to its student: they will see any change you save here at once ' +
          '(anything added is not marked until the work is graded again).',
      ),
    ).toBeInTheDocument();
  });

  it('says nothing and saves without asking when no result is released', async () => {
    mockReleases(0);
    const user = userEvent.setup({ delay: null });
    const { router, api } = await openEditor();
    await fill(points(), '5');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/assignment/${ID}`));
    expect(api.paths()).toEqual(['function/update']);
    expect(screen.queryByText(/released to/)).not.toBeInTheDocument();
    expect(await screen.findByText('Changes saved.')).toBeInTheDocument();
  });
});
