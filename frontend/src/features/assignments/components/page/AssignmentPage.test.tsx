import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Assignment, AssignmentFunction } from '../../api/types';
import { mockAssignment, SAMPLE_RUBRIC } from '../../testing/api-mocks';
import { fill } from '../../testing/fill';
import { renderAssignments } from '../../testing/render';
import { attachStyleSheets } from '../../../../testing/styles';

// The highlighter colours are asserted as computed CSS.
attachStyleSheets();

const ID = 'a1111111-1111-4111-8111-111111111111';

function assignment(overrides: Partial<Assignment>): Assignment {
  return {
    _id: ID,
    name: 'Assignment',
    type: 'grade',
    isHandWritten: false,
    provideInstantFeedback: false,
    folderId: null,
    classSummary: null,
    submissions: [],
    createdAt: '2025-02-01T10:00:00Z',
    updatedAt: '2025-02-01T10:00:00Z',
    ...overrides,
  };
}

function definition(type: Assignment['type'], fields: Partial<AssignmentFunction>): AssignmentFunction {
  return { _id: 'f1', assignmentId: ID, type, ...fields };
}

describe('assignment page', { timeout: 60_000 }, () => {
  it('shows a feedback assignment: its context and coloured highlighters', async () => {
    const calls = mockAssignment(
      assignment({ name: 'Uniform essay', type: 'feedback' }),
      definition('feedback', {
        context: 'Argue for or against school uniforms.',
        highlights: [
          { key: 'grammar', color: 'purple-500', title: 'Grammar', description: 'This highlighter should point out any grammar mistakes.' },
          { key: 'evidence', color: 'teal-700', title: 'Evidence', description: 'Facts that back the argument.' },
        ],
      }),
    );
    renderAssignments(`/assignment/${ID}`);

    expect(await screen.findByRole('heading', { name: 'Uniform essay', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Feedback', { selector: '.MuiChip-label' })).toBeInTheDocument();
    expect(await screen.findByText('Argue for or against school uniforms.')).toBeInTheDocument();
    const highlighters = screen.getByRole('list', { name: 'Highlighters' });
    // Purple 300 behind purple 900 text, darkened as far as WCAG AA's 4.5:1 needs.
    expect(within(highlighters).getByText('Grammar')).toHaveStyle({ backgroundColor: 'rgb(186, 104, 200)', color: 'rgb(46, 12, 87)' });
    expect(within(highlighters).getByText('Facts that back the argument.')).toBeInTheDocument();
    expect(calls.map((c) => c.body)).toEqual([{ assignmentId: ID, light: true }, { type: 'feedback', assignmentId: ID }]);
    expect(document.title).toBe('Uniform essay · Markwell');
  });

  it('shows a grade assignment: flags, the question tree and the total points', async () => {
    mockAssignment(
      assignment({ name: 'Causes of WW1', type: 'grade', isHandWritten: true, provideInstantFeedback: true }),
      definition('grade', {
        questions: [
          {
            questionText: 'Explain the causes.',
            context: 'Alliances',
            rubricId: SAMPLE_RUBRIC._id,
            criteria: [{ description: 'Names two causes', points: 2 }],
            subquestions: [
              { questionText: 'Which mattered most?', context: '', rubricId: null, criteria: [{ description: 'Takes a position', points: 3 }], subquestions: [] },
            ],
          },
        ],
      }),
    );
    renderAssignments(`/assignment/${ID}`);

    expect(await screen.findByRole('heading', { name: 'Causes of WW1', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Grade', { selector: '.MuiChip-label' })).toBeInTheDocument();
    expect(screen.getByText('Handwritten', { selector: '.MuiChip-label' })).toBeInTheDocument();
    expect(screen.getByText('Instant feedback', { selector: '.MuiChip-label' })).toBeInTheDocument();
    expect(await screen.findByText('Which mattered most?')).toBeInTheDocument();
    expect(screen.getByText('Names two causes')).toBeInTheDocument();
    expect(screen.getByText('Total: 5 points')).toBeInTheDocument();
    expect(await screen.findByText(SAMPLE_RUBRIC.name)).toBeInTheDocument();
    // Before the AI has run there is nothing to count.
    expect(screen.queryByText('AI use')).toBeNull();
  });

  it('says what the AI has cost the assignment so far', async () => {
    mockAssignment(
      assignment({ name: 'Essays', type: 'prompt', usage: { calls: 31, promptTokens: 41000, completionTokens: 2250, costUsd: 0.0875 } }),
      definition('prompt', { prompt: 'Give feedback.' }),
    );
    renderAssignments(`/assignment/${ID}`);

    const term = await screen.findByText('AI use');
    expect(term.nextElementSibling).toHaveTextContent('31 model calls · 43,250 tokens · $0.09');
  });

  it('says how many prompt tokens the provider served from its cache', async () => {
    mockAssignment(
      assignment({
        name: 'Essays',
        type: 'prompt',
        usage: { calls: 30, promptTokens: 90000, cachedPromptTokens: 72960, completionTokens: 6000, costUsd: 0.0264 },
      }),
      definition('prompt', { prompt: 'Give feedback.' }),
    );
    renderAssignments(`/assignment/${ID}`);

    const term = await screen.findByText('AI use');
    expect(term.nextElementSibling).toHaveTextContent('30 model calls · 96,000 tokens (72,960 cached) · $0.03');
  });

  it("shows a rubric-feedback assignment's rubric as criteria by levels", async () => {
    mockAssignment(
      assignment({ name: 'Uniform essays', type: 'rubric-feedback' }),
      definition('rubric-feedback', { rubricId: SAMPLE_RUBRIC._id, rubric: SAMPLE_RUBRIC }),
    );
    renderAssignments(`/assignment/${ID}`);

    expect(await screen.findByRole('heading', { name: 'Uniform essays', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Rubric feedback', { selector: '.MuiChip-label' })).toBeInTheDocument();
    const table = await screen.findByRole('table');
    expect(within(table).getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['Criterion', 'Level 1', 'Level 2', 'Level 3']);
    expect(within(table).getByRole('rowheader', { name: 'Evidence' })).toBeInTheDocument();
    expect(within(table).getByText('Compelling, well-supported position')).toBeInTheDocument();
    expect(within(table).getByText('0–1 pts')).toBeInTheDocument();
  });

  it('shows a prompt assignment and renames it', async () => {
    const user = userEvent.setup({ delay: null });
    const calls = mockAssignment(assignment({ name: 'Lab report', type: 'prompt' }), definition('prompt', { prompt: 'Be specific and kind.' }));
    renderAssignments(`/assignment/${ID}`);

    expect(await screen.findByText('Be specific and kind.')).toBeInTheDocument();
    expect(screen.getByText('Prompt', { selector: '.MuiChip-label' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Edit name' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit assignment name' });
    const field = within(dialog).getByRole('textbox', { name: 'Assignment name' });
    expect(field).toHaveValue('Lab report');
    await fill(field, 'Lab report: pendulums');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Assignment saved');
    expect(await screen.findByRole('heading', { name: 'Lab report: pendulums', level: 1 })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.find((c) => c.path === 'assignment/update')?.body).toEqual({
      id: ID,
      name: 'Lab report: pendulums',
      type: 'prompt',
      isHandWritten: false,
      provideInstantFeedback: false,
    });
  });

  it('says so kindly when the assignment does not exist', async () => {
    const user = userEvent.setup({ delay: null });
    mockAssignment(assignment({}), null);
    const { router } = renderAssignments('/assignment/someone-elses');

    expect(await screen.findByRole('heading', { name: 'Assignment not found' })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Back to library' }));
    expect(router.state.location.pathname).toBe('/library');
  });

  it('shows a loading state, and says when there is no definition yet', async () => {
    mockAssignment(assignment({ name: 'Half made', type: 'feedback' }), null);
    renderAssignments(`/assignment/${ID}`);

    expect(screen.getByRole('progressbar', { name: 'Loading assignment' })).toBeInTheDocument();
    expect(await screen.findByText('This assignment has no definition yet.')).toBeInTheDocument();
  });
});
