import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockAuthoringApi, NEW_ASSIGNMENT_ID } from '../../testing/api-mocks';
import { fill } from '../../testing/fill';
import { renderAssignments } from '../../testing/render';

const PATH = '/assignments/new/feedback';

describe('feedback wizard', { timeout: 60_000 }, () => {
  it('keeps Next disabled with a reason until the step is valid, and keeps the step in the address', async () => {
    const user = userEvent.setup({ delay: null });
    mockAuthoringApi();
    const { router } = renderAssignments(PATH);

    expect(screen.getByRole('heading', { name: 'New feedback assignment', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Step 1 of 3')).toBeInTheDocument();
    const next = screen.getByRole('button', { name: 'Next' });
    expect(next).toBeDisabled();
    expect(next).toHaveAccessibleDescription('Enter a name for the assignment to continue.');

    await fill(screen.getByRole('textbox', { name: 'Assignment name' }), 'Essay on uniforms');
    expect(next).toBeEnabled();
    await user.click(next);

    expect(await screen.findByText('Step 2 of 3')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?step=2');
    expect(screen.getByRole('heading', { name: 'What were the students asked?' })).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Next' })).toHaveAccessibleDescription(
      'Describe what the students were asked to continue.',
    );

    // The browser's Back returns to step 1 with the name kept; Forward goes on again.
    await act(() => router.navigate(-1));
    expect(await screen.findByText('Step 1 of 3')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Assignment name' })).toHaveValue('Essay on uniforms');
    await act(() => router.navigate(1));
    expect(await screen.findByText('Step 2 of 3')).toBeInTheDocument();

    // The Back button does the same.
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByText('Step 1 of 3')).toBeInTheDocument();
  });

  it('sends an address that skips ahead back to the first unfinished step', async () => {
    mockAuthoringApi();
    const { router } = renderAssignments(`${PATH}?step=3`);
    expect(await screen.findByText('Step 1 of 3')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe('?step=1'));
  });

  it('creates the assignment with its highlighters and opens it', async () => {
    const user = userEvent.setup({ delay: null });
    const api = mockAuthoringApi();
    const { router } = renderAssignments(PATH);

    await fill(screen.getByRole('textbox', { name: 'Assignment name' }), 'Essay on uniforms');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await fill(await screen.findByRole('textbox', { name: 'Question context' }), 'Argue for or against school uniforms.');
    await user.click(screen.getByRole('button', { name: 'Next' }));

    expect(await screen.findByText('Step 3 of 3')).toBeInTheDocument();
    const grammar = screen.getByRole('group', { name: 'Highlighter 1' });
    expect(within(grammar).getByRole('textbox', { name: 'Title' })).toHaveValue('Grammar');
    expect(within(grammar).getByRole('textbox', { name: 'Description' })).toHaveValue(
      'This highlighter should point out any grammar mistakes.',
    );
    // Colours in words, no internal key or `purple-500`.
    expect(within(grammar).getByRole('button', { name: 'Colour Purple' })).toHaveTextContent('Purple');
    expect(within(grammar).queryByText(/Key:|purple-500/)).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add highlighter' }));
    const second = screen.getByRole('group', { name: 'Highlighter 2' });
    const create = screen.getByRole('button', { name: 'Create assignment' });
    expect(create).toBeDisabled();
    expect(create).toHaveAccessibleDescription('Give highlighter 2 a title.');

    await fill(within(second).getByRole('textbox', { name: 'Title' }), 'Use of evidence!');
    expect(create).toHaveAccessibleDescription('Describe what highlighter 2 should point out.');
    await fill(within(second).getByRole('textbox', { name: 'Description' }), 'Quotes and facts that back the argument.');

    await user.click(within(second).getByRole('button', { name: 'Colour Blue' }));
    const palette = await screen.findByRole('dialog', { name: 'Choose a colour' });
    expect(within(palette).getAllByRole('button')).toHaveLength(19);
    await user.selectOptions(within(palette).getByRole('combobox', { name: 'Shade' }), '700');
    await user.click(within(palette).getByRole('button', { name: 'Dark teal' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Choose a colour' })).not.toBeInTheDocument());
    expect(within(second).getByRole('button', { name: 'Colour Dark teal' })).toBeInTheDocument();

    expect(create).toBeEnabled();
    await user.click(create);

    expect(await screen.findByRole('heading', { name: 'Essay on uniforms', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/assignment/${NEW_ASSIGNMENT_ID}`);
    expect(screen.getByRole('alert')).toHaveTextContent('Assignment created');
    expect(api.paths()).toEqual(['assignment/put', 'function/put']);
    expect(api.calls[0].body).toEqual({
      name: 'Essay on uniforms',
      type: 'feedback',
      isHandWritten: false,
      provideInstantFeedback: false,
    });
    expect(api.calls[1].body).toEqual({
      assignmentId: NEW_ASSIGNMENT_ID,
      context: 'Argue for or against school uniforms.',
      highlights: [
        {
          key: 'grammar',
          color: 'purple-500',
          title: 'Grammar',
          description: 'This highlighter should point out any grammar mistakes.',
        },
        { key: 'useOfEvidence', color: 'teal-700', title: 'Use of evidence!', description: 'Quotes and facts that back the argument.' },
      ],
    });

    // The wizard's steps left history: Back goes to the page before the wizard.
    await act(() => router.navigate(-1));
    expect(await screen.findByRole('heading', { name: 'Library page' })).toBeInTheDocument();
  });
});
