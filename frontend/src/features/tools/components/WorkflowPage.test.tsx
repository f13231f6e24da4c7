import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '../../../testing/server';
import { renderToolRoutes, serveCatalog, serveChatStream, sseEvent } from '../testing/render';

const PROMPT = 'Write a lesson plan.\nSubject: Biology\nYear group: Year 8';
const DOCUMENT = '# Photosynthesis lesson\n\nStarter: what do plants eat?';

function lessonPlanStream() {
  return serveChatStream([
    ': ping\n\n',
    sseEvent('meta', { omittedTurns: 0, prompt: PROMPT }),
    sseEvent('delta', { text: 'Here is your lesson plan.' }),
    sseEvent('document', { document: DOCUMENT }),
    sseEvent('done', { text: 'Here is your lesson plan.', document: DOCUMENT, usage: { model: 'demo', promptTokens: 10, completionTokens: 20 } }),
  ]);
}

describe('workflow page', { timeout: 30_000 }, () => {
  it("shows the workflow's form: required fields marked, lengths limited, hints as placeholders", async () => {
    serveCatalog();
    renderToolRoutes('/tools', '/workflows/lesson-plan');

    expect(await screen.findByRole('heading', { level: 1, name: 'Lesson plan' })).toBeInTheDocument();
    expect(screen.getByText('Answer a few questions and get a full lesson plan.')).toBeInTheDocument();
    const subject = screen.getByRole('textbox', { name: /^Subject/ });
    expect(subject).toBeRequired();
    expect(subject).toHaveAttribute('maxlength', '100');
    expect(subject).toHaveAttribute('placeholder', 'e.g. Biology');
    const grade = screen.getByRole('combobox', { name: /^Year group/ });
    expect(grade).toBeRequired();
    expect(within(grade).getAllByRole('option').map((o) => o.textContent)).toEqual(['Choose…', 'Year 7', 'Year 8', 'Year 9']);
    const objectives = screen.getByRole('textbox', { name: 'Learning objectives' });
    expect(objectives).not.toBeRequired();
    expect(objectives).toHaveAttribute('maxlength', '2000');
    expect(objectives.tagName).toBe('TEXTAREA');
  });

  it('refuses to start with a required field empty, marks it and sends nothing', async () => {
    serveCatalog();
    const bodies = lessonPlanStream();
    const user = userEvent.setup();
    renderToolRoutes('/tools', '/workflows/lesson-plan');

    await user.type(await screen.findByRole('textbox', { name: /^Subject/ }), '   ');
    await user.click(screen.getByRole('button', { name: 'Create document' }));

    expect(await screen.findByText('Please fill in all required fields')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /^Subject/ })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('combobox', { name: /^Year group/ })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('textbox', { name: 'Learning objectives' })).toHaveAttribute('aria-invalid', 'false');
    expect(screen.getByText('Year group is required.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /^Subject/ })).toHaveFocus();
    expect(screen.queryByRole('button', { name: 'Change answers' })).not.toBeInTheDocument();
    expect(bodies).toEqual([]);

    // Filling one field clears its mark; the other stays marked.
    await user.type(screen.getByRole('textbox', { name: /^Subject/ }), 'Biology');
    expect(screen.getByRole('textbox', { name: /^Subject/ })).toHaveAttribute('aria-invalid', 'false');
    expect(screen.getByRole('combobox', { name: /^Year group/ })).toHaveAttribute('aria-invalid', 'true');
  });

  it('runs the workflow with the answers and opens the document; the answers can be changed', async () => {
    serveCatalog();
    const bodies = lessonPlanStream();
    const user = userEvent.setup();
    const { router } = renderToolRoutes('/tools', '/workflows/lesson-plan');

    await user.click(await screen.findByRole('textbox', { name: /^Subject/ }));
    await user.paste('  Biology ');
    await user.selectOptions(screen.getByRole('combobox', { name: /^Year group/ }), 'Year 8');
    await user.click(screen.getByRole('button', { name: 'Create document' }));

    // The form folds into a summary; the chat runs the workflow and the document opens.
    const document = await screen.findByRole('document', { name: 'Current document' });
    expect(await within(document).findByRole('heading', { name: 'Photosynthesis lesson' })).toBeInTheDocument();
    expect(within(document).getByText('Starter: what do plants eat?')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download Word' })).toBeInTheDocument();
    expect(screen.getByText('Here is your lesson plan.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create document' })).not.toBeInTheDocument();
    const summary = screen.getByRole('region', { name: 'Your answers' });
    expect(summary).toHaveTextContent('SubjectBiology');
    expect(summary).toHaveTextContent('Year groupYear 8');
    expect(summary).not.toHaveTextContent('Learning objectives'); // left empty
    expect(bodies).toEqual([{ messages: [], workflow: { id: 'lesson-plan', inputs: { subject: 'Biology', grade: 'Year 8' } }, toolId: 'lesson-plan' }]);

    // "Change answers" brings the form back with the answers kept.
    await user.click(within(summary).getByRole('button', { name: 'Change answers' }));
    expect(await screen.findByRole('textbox', { name: /^Subject/ })).toHaveValue('  Biology ');
    expect(screen.getByRole('combobox', { name: /^Year group/ })).toHaveValue('Year 8');
    expect(router.state.location.pathname).toBe('/workflows/lesson-plan');

    // A new run sends the changed answers.
    await user.click(screen.getByRole('textbox', { name: 'Learning objectives' }));
    await user.paste('Explain photosynthesis');
    await user.click(screen.getByRole('button', { name: 'Create document' }));
    expect(await screen.findByRole('region', { name: 'Your answers' })).toHaveTextContent('Learning objectivesExplain photosynthesis');
    await waitFor(() => expect(bodies).toHaveLength(2));
    expect(bodies[1]).toEqual({
      messages: [],
      workflow: { id: 'lesson-plan', inputs: { subject: 'Biology', grade: 'Year 8', objectives: 'Explain photosynthesis' } },
      toolId: 'lesson-plan',
    });
  });

  it('goes back from the result to the form, then (asking first) to the tools, without running the workflow again', async () => {
    serveCatalog();
    const bodies = lessonPlanStream();
    const user = userEvent.setup();
    const { router } = renderToolRoutes('/tools', '/workflows/quiz-from-text');

    await user.click(await screen.findByRole('textbox', { name: /^Text/ }));
    await user.paste('The water cycle');
    await user.click(screen.getByRole('button', { name: 'Create document' }));
    expect(await screen.findByRole('document', { name: 'Current document' })).toHaveTextContent('Photosynthesis lesson');

    await router.navigate(-1);
    expect(await screen.findByRole('textbox', { name: /^Text/ })).toHaveValue('The water cycle');
    expect(screen.queryByRole('document', { name: 'Current document' })).not.toBeInTheDocument();

    await router.navigate(1);
    expect(await screen.findByRole('document', { name: 'Current document' })).toHaveTextContent('Photosynthesis lesson');
    expect(bodies).toHaveLength(1);

    // Leaving the unsaved result for another page asks first.
    await router.navigate(-2);
    const dialog = await screen.findByRole('dialog', { name: 'Leave this chat without saving?' });
    expect(router.state.location.pathname).toBe('/workflows/quiz-from-text');
    await user.click(within(dialog).getByRole('button', { name: 'Leave without saving' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/tools'));
  });

  it('says the workflow was not found for an unknown id, with a way back to the tools', async () => {
    serveCatalog();
    const user = userEvent.setup();
    const { router } = renderToolRoutes('/workflows/no-such-workflow');

    expect(await screen.findByRole('heading', { name: 'Workflow not found' })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Back to tools' }));
    expect(router.state.location.pathname).toBe('/tools');
  });

  it('shows the refusal of the server when the run is refused before it starts', async () => {
    serveCatalog();
    server.use(
      http.post('/api/v1/chat/stream', () =>
        HttpResponse.json({ error: { code: 'invalid', message: 'Year group must be one of: Year 7, Year 8, Year 9' } }, { status: 400 }),
      ),
    );
    const user = userEvent.setup();
    renderToolRoutes('/workflows/lesson-plan');

    await user.click(await screen.findByRole('textbox', { name: /^Subject/ }));
    await user.paste('Biology');
    await user.selectOptions(screen.getByRole('combobox', { name: /^Year group/ }), 'Year 9');
    await user.click(screen.getByRole('button', { name: 'Create document' }));

    expect(await screen.findByText('Year group must be one of: Year 7, Year 8, Year 9')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Change answers' })).toBeInTheDocument();
  });
});
