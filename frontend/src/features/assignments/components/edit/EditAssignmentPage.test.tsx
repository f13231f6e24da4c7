import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
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
