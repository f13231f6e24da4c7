import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, mockAuthoringApi, NEW_ASSIGNMENT_ID } from '../../testing/api-mocks';
import { fill } from '../../testing/fill';
import { renderAssignments } from '../../testing/render';

describe('prompt form', { timeout: 60_000 }, () => {
  it('needs a name and a prompt, then creates the assignment', async () => {
    const user = userEvent.setup({ delay: null });
    const api = mockAuthoringApi();
    const { router } = renderAssignments('/assignments/new/prompt');

    expect(screen.getByRole('heading', { name: 'New prompt assignment', level: 1 })).toBeInTheDocument();
    const create = screen.getByRole('button', { name: 'Create assignment' });
    expect(create).toBeDisabled();
    expect(create).toHaveAccessibleDescription('Enter a name for the assignment to continue.');

    await fill(screen.getByRole('textbox', { name: 'Assignment name' }), 'Lab report feedback');
    expect(create).toHaveAccessibleDescription('Write the prompt to continue.');
    await fill(screen.getByRole('textbox', { name: 'Prompt' }), 'List three strengths and one thing to improve.');
    await user.click(screen.getByRole('switch', { name: 'Handwritten' }));
    await user.click(create);

    expect(await screen.findByRole('heading', { name: 'Lab report feedback', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/assignment/${NEW_ASSIGNMENT_ID}`);
    expect(await screen.findByText('List three strengths and one thing to improve.')).toBeInTheDocument();
    expect(api.calls.map((c) => c.body)).toEqual([
      { name: 'Lab report feedback', type: 'prompt', isHandWritten: true, provideInstantFeedback: false },
      { assignmentId: NEW_ASSIGNMENT_ID, prompt: 'List three strengths and one thing to improve.' },
    ]);
  });

  it("shows the server's message and keeps the form when creating fails", async () => {
    const user = userEvent.setup({ delay: null });
    const api = mockAuthoringApi();
    const { server } = await import('../../../../testing/server');
    const { http } = await import('msw');
    server.use(http.post('/api/v1/db/assignment/put', () => apiError(400, 'Assignment name cannot be empty')));
    renderAssignments('/assignments/new/prompt');

    await fill(screen.getByRole('textbox', { name: 'Assignment name' }), 'Lab');
    await fill(screen.getByRole('textbox', { name: 'Prompt' }), 'Be kind.');
    await user.click(screen.getByRole('button', { name: 'Create assignment' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Assignment name cannot be empty');
    expect(screen.getByRole('textbox', { name: 'Prompt' })).toHaveValue('Be kind.');
    expect(api.paths()).toEqual([]);
  });
});
