import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockAuthoringApi, NEW_ASSIGNMENT_ID, OTHER_RUBRIC, SAMPLE_RUBRIC } from '../../testing/api-mocks';
import { fill } from '../../testing/fill';
import { renderAssignments } from '../../testing/render';

const PATH = '/assignments/new/rubric-feedback';

describe('rubric-feedback wizard', { timeout: 60_000 }, () => {
  it('requires a rubric, then creates the assignment with it', async () => {
    const user = userEvent.setup({ delay: null });
    const api = mockAuthoringApi();
    const { router } = renderAssignments(PATH);

    await fill(screen.getByRole('textbox', { name: 'Assignment name' }), 'Uniform essays');
    await user.click(screen.getByRole('switch', { name: 'Handwritten' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));

    expect(await screen.findByText('Step 2 of 3')).toBeInTheDocument();
    const rubric = await screen.findByRole('radio', { name: SAMPLE_RUBRIC.name });
    expect(rubric).toHaveAccessibleDescription(/^2 criteria/);
    expect(screen.getByRole('radio', { name: OTHER_RUBRIC.name })).toHaveAccessibleDescription('1 criterion · Updated Jan 2, 2026');
    const next = screen.getByRole('button', { name: 'Next' });
    expect(next).toBeDisabled();
    expect(next).toHaveAccessibleDescription('Choose a rubric to continue.');

    await user.click(rubric);
    expect(next).toBeEnabled();
    await user.click(next);

    expect(await screen.findByText('Step 3 of 3')).toBeInTheDocument();
    const table = screen.getByRole('table');
    expect(within(table).getByRole('rowheader', { name: 'Argument' })).toBeInTheDocument();
    expect(within(table).getByText('2–4 pts')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Create assignment' }));
    expect(await screen.findByRole('heading', { name: 'Uniform essays', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/assignment/${NEW_ASSIGNMENT_ID}`);
    expect(api.paths()).toEqual(['assignment/put', 'function/put']);
    expect(api.calls[0].body).toEqual({
      name: 'Uniform essays',
      type: 'rubric-feedback',
      isHandWritten: true,
      provideInstantFeedback: false,
    });
    expect(api.calls[1].body).toEqual({ assignmentId: NEW_ASSIGNMENT_ID, rubricId: SAMPLE_RUBRIC._id });
  });

  it('sends the teacher to create a rubric when the team has none', async () => {
    const user = userEvent.setup({ delay: null });
    mockAuthoringApi({ rubrics: [] });
    const { router } = renderAssignments(PATH);

    await fill(screen.getByRole('textbox', { name: 'Assignment name' }), 'Uniform essays');
    await user.click(screen.getByRole('button', { name: 'Next' }));

    expect(await screen.findByText('Your team has no rubrics yet.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    await user.click(screen.getByRole('link', { name: 'Create a rubric first' }));
    // Leaving drops the name typed in step 1, so the wizard asks first.
    const dialog = await screen.findByRole('dialog', { name: 'Discard your changes?' });
    await user.click(within(dialog).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/rubrics/new'));
  });
});
