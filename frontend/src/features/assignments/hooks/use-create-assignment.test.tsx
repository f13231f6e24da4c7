import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, mockAuthoringApi, NEW_ASSIGNMENT_ID } from '../testing/api-mocks';
import { fill } from '../testing/fill';
import { renderAssignments } from '../testing/render';

describe('creating an assignment in two calls', { timeout: 60_000 }, () => {
  it('keeps the wizard as it was when the definition fails, and a retry reuses the assignment', async () => {
    const user = userEvent.setup({ delay: null });
    const api = mockAuthoringApi({
      functionPut: (_call, attempt) => (attempt === 1 ? apiError(400, 'Highlighter keys must be unique') : undefined),
    });
    const { router } = renderAssignments('/assignments/new/feedback');

    await fill(screen.getByRole('textbox', { name: 'Assignment name' }), 'Essay');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await fill(await screen.findByRole('textbox', { name: 'Question context' }), 'Argue a case.');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Step 3 of 3');
    await fill(within(screen.getByRole('group', { name: 'Highlighter 1' })).getByRole('textbox', { name: 'Title' }), 'Spelling');

    await user.click(screen.getByRole('button', { name: 'Create assignment' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Highlighter keys must be unique');
    expect(screen.getByText('Step 3 of 3')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Highlighter 1' })).getByRole('textbox', { name: 'Title' })).toHaveValue('Spelling');
    expect(router.state.location.pathname).toBe('/assignments/new/feedback');

    // Going back to fix the name, then retrying, renames the assignment already made.
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await fill(await screen.findByRole('textbox', { name: 'Assignment name' }), 'Essay, take two');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(await screen.findByRole('button', { name: 'Next' }));
    await user.click(await screen.findByRole('button', { name: 'Create assignment' }));

    expect(await screen.findByRole('heading', { name: 'Essay, take two', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/assignment/${NEW_ASSIGNMENT_ID}`);
    expect(api.paths()).toEqual(['assignment/put', 'function/put', 'assignment/update', 'function/put']);
    expect(api.calls[2].body).toMatchObject({ id: NEW_ASSIGNMENT_ID, name: 'Essay, take two', type: 'feedback' });
    expect(api.calls[3].body).toMatchObject({ assignmentId: NEW_ASSIGNMENT_ID });
  });

  it('retries only the definition when nothing else changed', async () => {
    const user = userEvent.setup({ delay: null });
    const api = mockAuthoringApi({
      functionPut: (_call, attempt) => (attempt === 1 ? new Response(null, { status: 500 }) : undefined),
    });
    renderAssignments('/assignments/new/prompt');

    await fill(screen.getByRole('textbox', { name: 'Assignment name' }), 'Lab');
    await fill(screen.getByRole('textbox', { name: 'Prompt' }), 'Be kind.');
    await user.click(screen.getByRole('button', { name: 'Create assignment' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      "We couldn't create the assignment. Your work is still here; please try again.",
    );

    await user.click(screen.getByRole('button', { name: 'Create assignment' }));
    expect(await screen.findByRole('heading', { name: 'Lab', level: 1 })).toBeInTheDocument();
    expect(api.paths()).toEqual(['assignment/put', 'function/put', 'function/put']);
  });

  it('replaces a definition whose first save answered with an error but went through', async () => {
    const user = userEvent.setup({ delay: null });
    const api = mockAuthoringApi({
      functionPut: (_call, attempt) =>
        attempt === 1 ? new Response(null, { status: 502 }) : apiError(400, 'This assignment already has a definition'),
      existingFunction: (assignmentId) => ({ _id: 'f-lost', assignmentId, type: 'prompt', prompt: 'Be kind.' }),
    });
    renderAssignments('/assignments/new/prompt');

    await fill(screen.getByRole('textbox', { name: 'Assignment name' }), 'Lab');
    await fill(screen.getByRole('textbox', { name: 'Prompt' }), 'Be kind.');
    await user.click(screen.getByRole('button', { name: 'Create assignment' }));
    await screen.findByRole('alert');
    await fill(screen.getByRole('textbox', { name: 'Prompt' }), 'Be kind and specific.');
    await user.click(screen.getByRole('button', { name: 'Create assignment' }));

    expect(await screen.findByRole('heading', { name: 'Lab', level: 1 })).toBeInTheDocument();
    expect(api.paths()).toEqual(['assignment/put', 'function/put', 'function/put', 'function/update']);
    expect(api.calls[3].body).toEqual({ assignmentId: NEW_ASSIGNMENT_ID, functionId: 'f-lost', prompt: 'Be kind and specific.' });
  });
});
