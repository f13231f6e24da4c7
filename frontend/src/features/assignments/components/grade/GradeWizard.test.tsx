import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, mockAuthoringApi, NEW_ASSIGNMENT_ID, SAMPLE_RUBRIC } from '../../testing/api-mocks';
import { fill } from '../../testing/fill';
import { renderAssignments } from '../../testing/render';

const PATH = '/assignments/new/grade';

async function goToQuestions(user: ReturnType<typeof userEvent.setup>, name = 'Causes of WW1') {
  await fill(screen.getByRole('textbox', { name: 'Assignment name' }), name);
  await user.click(screen.getByRole('button', { name: 'Next' }));
  expect(await screen.findByText('Step 2 of 3')).toBeInTheDocument();
}

function question(number: string) {
  return screen.getByRole('region', { name: `Question ${number}` });
}

describe('grade wizard', { timeout: 60_000 }, () => {
  it('nests questions at most three levels', async () => {
    const user = userEvent.setup({ delay: null });
    mockAuthoringApi();
    renderAssignments(PATH);
    await goToQuestions(user);

    await user.click(screen.getByRole('button', { name: 'Add subquestion to question 1' }));
    expect(question('1a')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add subquestion to question 1a' }));
    expect(question('1a i')).toBeInTheDocument();

    const deepest = within(question('1a i')).getByRole('button', { name: 'Add subquestion to question 1a i' });
    expect(deepest).toBeDisabled();
    await user.hover(deepest.parentElement as HTMLElement);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Questions nest at most 3 levels');
  });

  it('will not go on while no question has a criterion to grade against', async () => {
    const user = userEvent.setup({ delay: null });
    const api = mockAuthoringApi();
    renderAssignments(PATH);
    await goToQuestions(user);

    await fill(within(question('1')).getByRole('textbox', { name: 'Question text' }), 'Write anything.');
    const next = screen.getByRole('button', { name: 'Next' });
    expect(next).toBeDisabled();
    expect(next).toHaveAccessibleDescription('Add at least one criterion to a question to continue.');
    expect(screen.getByText('Add at least one criterion to a question to continue.')).toBeVisible();
    await user.click(screen.getByRole('textbox', { name: 'Question text' }));
    await user.keyboard('{Enter}');
    expect(screen.getByText('Step 2 of 3')).toBeInTheDocument();
    expect(api.paths()).not.toContain('function/put');

    // Grading needs a criterion somewhere in the tree: a subquestion's is enough.
    await user.click(screen.getByRole('button', { name: 'Add subquestion to question 1' }));
    await fill(within(question('1a')).getByRole('textbox', { name: 'Question text' }), 'Name one cause.');
    await user.click(screen.getByRole('button', { name: 'Add criterion to question 1a' }));
    await fill(within(question('1a')).getByRole('textbox', { name: 'Criterion' }), 'Names a cause');
    expect(next).toBeEnabled();
    await user.click(next);
    expect(await screen.findByText('Step 3 of 3')).toBeInTheDocument();
    expect(screen.getByText('Total: 1 point')).toBeInTheDocument();
  });

  it('shows the total points live as criteria change', async () => {
    const user = userEvent.setup({ delay: null });
    mockAuthoringApi();
    renderAssignments(PATH);
    await goToQuestions(user);

    expect(screen.getByText('Total: 0 points')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add criterion to question 1' }));
    const first = screen.getByRole('group', { name: 'Criterion 1 of question 1' });
    expect(within(first).getByRole('textbox', { name: 'Criterion' })).toHaveValue('');
    expect(within(first).getByRole('spinbutton', { name: 'Points' })).toHaveValue(1);
    expect(screen.getByText('Total: 1 point')).toBeInTheDocument();

    await fill(within(first).getByRole('spinbutton', { name: 'Points' }), '4');
    expect(screen.getByText('Total: 4 points')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add subquestion to question 1' }));
    await user.click(screen.getByRole('button', { name: 'Add criterion to question 1a' }));
    expect(screen.getByText('Total: 5 points')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Remove criterion 1 of question 1' }));
    expect(screen.getByText('Total: 1 point')).toBeInTheDocument();
  });

  it('appends suggested criteria, and says so when suggesting fails', async () => {
    const user = userEvent.setup({ delay: null });
    let fail = false;
    const api = mockAuthoringApi({
      suggestCriteria: () => (fail ? apiError(502, 'Failed to generate criteria.', 'internal') : undefined) as Response,
    });
    renderAssignments(PATH);
    await goToQuestions(user);

    await fill(within(question('1')).getByRole('textbox', { name: 'Question text' }), 'Explain the causes of WW1.');
    await fill(within(question('1')).getByRole('textbox', { name: 'Context' }), 'Alliances, militarism.');
    await user.click(screen.getByRole('button', { name: 'Add criterion to question 1' }));
    await user.click(screen.getByRole('button', { name: 'Suggest criteria for question 1' }));

    await screen.findByRole('group', { name: 'Criterion 3 of question 1' });
    expect(within(screen.getByRole('group', { name: 'Criterion 2 of question 1' })).getByRole('textbox', { name: 'Criterion' })).toHaveValue(
      'Names at least two causes',
    );
    expect(screen.getByText('Total: 6 points')).toBeInTheDocument();
    expect(api.calls.at(-1)?.body).toEqual({ question: 'Explain the causes of WW1.', context: 'Alliances, militarism.' });

    // Asking again brings the same suggestions: nothing is added twice.
    await user.click(screen.getByRole('button', { name: 'Suggest criteria for question 1' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('No new criteria to suggest for this question.');
    expect(screen.queryByRole('group', { name: 'Criterion 4 of question 1' })).not.toBeInTheDocument();

    fail = true;
    await user.click(screen.getByRole('button', { name: 'Suggest criteria for question 1' }));
    await screen.findByText('Failed to generate criteria.');
    expect(screen.queryByRole('group', { name: 'Criterion 4 of question 1' })).not.toBeInTheDocument();
  });

  it('fills the tree from an assignment sheet, asking before replacing questions', async () => {
    const user = userEvent.setup({ delay: null });
    const api = mockAuthoringApi();
    renderAssignments(PATH);
    await goToQuestions(user);

    await user.click(screen.getByRole('button', { name: /Generate questions from assignment sheet/ }));
    expect(screen.getByText(/Reading PDF and Word files arrives in a later release/)).toBeInTheDocument();
    const generate = screen.getByRole('button', { name: 'Generate questions' });
    expect(generate).toBeDisabled();

    // A .txt file is read in the browser into the text box.
    const sheet = new File(['1. Explain the causes of the First World War.\n2. Which cause mattered most?'], 'sheet.txt', {
      type: 'text/plain',
    });
    await user.upload(screen.getByLabelText('Assignment sheet file'), sheet);
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Assignment text' })).toHaveValue(
        '1. Explain the causes of the First World War.\n2. Which cause mattered most?',
      ),
    );
    expect(screen.getByText('Read sheet.txt')).toBeInTheDocument();

    // The blank starting question is replaced without asking.
    await user.click(generate);
    expect(await screen.findByRole('region', { name: 'Question 2' })).toBeInTheDocument();
    expect(within(question('1')).getByRole('textbox', { name: 'Question text' })).toHaveValue(
      'Explain the causes of the First World War.',
    );
    expect(within(question('2')).getByRole('textbox', { name: 'Question text' })).toHaveValue('Which cause mattered most?');
    expect(screen.getByText('Total: 3 points')).toBeInTheDocument();
    expect(api.calls.at(-1)).toEqual({
      path: 'ai-assist/suggest-questions',
      body: { assignmentText: '1. Explain the causes of the First World War.\n2. Which cause mattered most?' },
    });

    // With questions present, the teacher chooses.
    await user.click(generate);
    const dialog = await screen.findByRole('dialog', { name: 'Replace current questions?' });
    await user.click(within(dialog).getByRole('button', { name: 'Add after mine' }));
    expect(await screen.findByRole('region', { name: 'Question 4' })).toBeInTheDocument();

    await user.click(generate);
    await user.click(within(await screen.findByRole('dialog', { name: 'Replace current questions?' })).getByRole('button', { name: 'Replace' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('region', { name: 'Question 2' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Question 3' })).not.toBeInTheDocument();
  });

  it('says so when generating questions fails', async () => {
    const user = userEvent.setup({ delay: null });
    mockAuthoringApi({ suggestQuestions: () => apiError(502, 'Failed to generate questions.', 'internal') });
    renderAssignments(PATH);
    await goToQuestions(user);

    await user.click(screen.getByRole('button', { name: /Generate questions from assignment sheet/ }));
    await fill(screen.getByRole('textbox', { name: 'Assignment text' }), 'Q1. What is a noun?');
    await user.click(screen.getByRole('button', { name: 'Generate questions' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to generate questions.');
    expect(screen.queryByRole('region', { name: 'Question 2' })).not.toBeInTheDocument();
  });

  it('leaves at once while nothing is entered', async () => {
    mockAuthoringApi();
    const { router } = renderAssignments(PATH);
    expect(await screen.findByText('Step 1 of 3')).toBeInTheDocument();
    await act(() => router.navigate('/library'));
    expect(await screen.findByRole('heading', { name: 'Library page' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('asks before leaving with a typed question: Keep editing stays, Discard leaves', async () => {
    const user = userEvent.setup({ delay: null });
    mockAuthoringApi();
    const { router } = renderAssignments(PATH);
    await goToQuestions(user);
    await fill(within(question('1')).getByRole('textbox', { name: 'Question text' }), 'Explain the causes.');

    // Another page of the app (the top bar's Library) asks; moving between steps does not.
    await act(() => router.navigate('/library'));
    const dialog = await screen.findByRole('dialog', { name: 'Discard your changes?' });
    const keep = within(dialog).getByRole('button', { name: 'Keep editing' });
    expect(keep).toHaveFocus();
    await user.click(keep);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(router.state.location.pathname).toBe(PATH);
    expect(within(question('1')).getByRole('textbox', { name: 'Question text' })).toHaveValue('Explain the causes.');

    // Back to step 1 stays in the wizard; Back again would leave it, so it asks. Discard leaves.
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByText('Step 1 of 3')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await act(() => router.navigate(-1));
    const again = await screen.findByRole('dialog', { name: 'Discard your changes?' });
    expect(router.state.location.pathname).toBe(PATH);
    await user.click(within(again).getByRole('button', { name: 'Discard' }));
    expect(await screen.findByRole('heading', { name: 'Library page' })).toBeInTheDocument();
  });

  it('asks when the tab is closed or reloaded once anything is entered', async () => {
    mockAuthoringApi();
    renderAssignments(PATH);
    expect(await screen.findByText('Step 1 of 3')).toBeInTheDocument();
    const before = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(before);
    expect(before.defaultPrevented).toBe(false);

    await fill(screen.getByRole('textbox', { name: 'Assignment name' }), 'Causes of WW1');
    const after = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(after);
    expect(after.defaultPrevented).toBe(true);
  });

  it('reviews and creates the assignment with its question tree', async () => {
    const user = userEvent.setup({ delay: null });
    const api = mockAuthoringApi();
    const { router } = renderAssignments(PATH);

    await user.click(screen.getByRole('switch', { name: 'Handwritten' }));
    await user.click(screen.getByRole('switch', { name: 'Instant feedback for students' }));
    await goToQuestions(user, 'Causes of WW1');

    const next = screen.getByRole('button', { name: 'Next' });
    expect(next).toHaveAccessibleDescription('Question 1 needs question text.');
    await fill(within(question('1')).getByRole('textbox', { name: 'Question text' }), 'Explain the causes.');
    await user.click(screen.getByRole('button', { name: 'Add criterion to question 1' }));
    expect(next).toHaveAccessibleDescription('Question 1: describe criterion 1 or remove it.');
    await fill(within(question('1')).getByRole('textbox', { name: 'Criterion' }), 'Names two causes');
    await user.selectOptions(within(question('1')).getByRole('combobox', { name: 'Rubric' }), SAMPLE_RUBRIC.name);
    await user.click(screen.getByRole('button', { name: 'Add subquestion to question 1' }));
    await fill(within(question('1a')).getByRole('textbox', { name: 'Question text' }), 'Which mattered most?');
    await user.click(screen.getByRole('button', { name: 'Add criterion to question 1a' }));
    await fill(within(question('1a')).getByRole('textbox', { name: 'Criterion' }), 'Takes a position');
    await fill(within(question('1a')).getByRole('spinbutton', { name: 'Points' }), '2');
    await user.click(next);

    expect(await screen.findByText('Step 3 of 3')).toBeInTheDocument();
    expect(screen.getByText('Total: 3 points')).toBeInTheDocument();
    expect(screen.getByText('Which mattered most?')).toBeInTheDocument();
    expect(screen.getByText(SAMPLE_RUBRIC.name)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Create assignment' }));
    expect(await screen.findByRole('heading', { name: 'Causes of WW1', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/assignment/${NEW_ASSIGNMENT_ID}`);
    // Creating is the way out that does not ask.
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.paths().filter((p) => !p.startsWith('ai-assist'))).toEqual(['assignment/put', 'function/put']);
    expect(api.calls[0].body).toEqual({ name: 'Causes of WW1', type: 'grade', isHandWritten: true, provideInstantFeedback: true });
    expect(api.calls[1].body).toEqual({
      assignmentId: NEW_ASSIGNMENT_ID,
      questions: [
        {
          questionText: 'Explain the causes.',
          context: '',
          rubricId: SAMPLE_RUBRIC._id,
          criteria: [{ description: 'Names two causes', points: 1 }],
          subquestions: [
            {
              questionText: 'Which mattered most?',
              context: '',
              rubricId: null,
              criteria: [{ description: 'Takes a position', points: 2 }],
              subquestions: [],
            },
          ],
        },
      ],
    });
    await act(() => router.navigate(-1));
    expect(await screen.findByRole('heading', { name: 'Library page' })).toBeInTheDocument();
  });
});
