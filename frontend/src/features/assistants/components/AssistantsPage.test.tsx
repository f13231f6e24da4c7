import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { TEST_USER } from '../../../testing/handlers';
import { server } from '../../../testing/server';
import { assistant, fakeAssistantBackend } from '../testing/fake-backend';
import { renderAssistantRoutes } from '../testing/render';

/** Makes the signed-in teacher (Ada) a plain member of a team Grace owns. */
function notTheOwner() {
  server.use(
    http.get('/api/v1/db/user/get', () =>
      HttpResponse.json({ data: { user: { ...TEST_USER, team: { ...TEST_USER.team, ownerId: 'u2' } } } }),
    ),
  );
}

async function card(title: string) {
  return screen.findByRole('article', { name: title });
}

describe('assistant list', { timeout: 30_000 }, () => {
  it('shows each assistant as a card with its picture or letter, description, chips and actions', async () => {
    fakeAssistantBackend({
      assistants: [
        assistant('a1', 'Lesson planner', { description: 'Plans lessons around your syllabus.', isMine: true, isSaved: true }),
        assistant('a2', 'Quiz maker', { isMine: false, isSaved: true, imageURL: 'http://localhost:3000/blob/public/t1/0001-quiz.png' }),
      ],
    });
    renderAssistantRoutes('/assistants');

    expect(await screen.findByRole('heading', { level: 1, name: 'Assistants' })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Assistants' });
    expect(within(list).getAllByRole('article').map((a) => within(a).getByRole('heading').textContent)).toEqual([
      'Lesson planner',
      'Quiz maker',
    ]);

    const planner = await card('Lesson planner');
    expect(planner).toHaveTextContent('Plans lessons around your syllabus.');
    expect(within(planner).getByText('Saved for team')).toBeInTheDocument();
    expect(within(planner).getByText('Yours')).toBeInTheDocument();
    expect(within(planner).getByText('L')).toBeInTheDocument();
    expect(within(planner).getByRole('link', { name: 'Chat with Lesson planner' })).toHaveAttribute('href', '/assistants/a1/chat');
    expect(within(planner).getByRole('link', { name: 'Edit Lesson planner' })).toHaveAttribute('href', '/assistants/a1/edit');
    expect(within(planner).getByRole('button', { name: 'Delete Lesson planner' })).toBeInTheDocument();
    // Copying is for teammates' assistants.
    expect(within(planner).queryByRole('button', { name: /Make a copy/ })).not.toBeInTheDocument();

    const quiz = await card('Quiz maker');
    expect(quiz.querySelector('img')).toHaveAttribute('src', 'http://localhost:3000/blob/public/t1/0001-quiz.png');
    expect(within(quiz).queryByText('Yours')).not.toBeInTheDocument();
    expect(within(quiz).getByRole('button', { name: 'Make a copy of Quiz maker' })).toBeInTheDocument();
    // Ada owns the team, so she may change a teammate's assistant too.
    expect(within(quiz).getByRole('link', { name: 'Edit Quiz maker' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'New assistant' })).toHaveAttribute('href', '/assistants/new');
  });

  it("offers neither edit nor delete on a teammate's assistant to a teacher who does not own the team", async () => {
    notTheOwner();
    fakeAssistantBackend({ assistants: [assistant('a2', 'Quiz maker', { isMine: false, isSaved: true }), assistant('a1', 'Mine')] });
    renderAssistantRoutes('/assistants');

    const quiz = await card('Quiz maker');
    // Wait for the user to arrive before checking what is hidden.
    expect(within(await card('Mine')).getByRole('link', { name: 'Edit Mine' })).toBeInTheDocument();
    expect(within(quiz).queryByRole('link', { name: 'Edit Quiz maker' })).not.toBeInTheDocument();
    expect(within(quiz).queryByRole('button', { name: 'Delete Quiz maker' })).not.toBeInTheDocument();
    expect(within(quiz).getByRole('button', { name: 'Make a copy of Quiz maker' })).toBeInTheDocument();
  });

  it('shows a friendly empty state that leads to a new assistant', async () => {
    fakeAssistantBackend({ assistants: [] });
    const user = userEvent.setup();
    const { router } = renderAssistantRoutes('/assistants');

    expect(await screen.findByText('No assistants yet')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Create your first assistant' }));
    expect(router.state.location.pathname).toBe('/assistants/new');
  });

  it('offers a retry when the list cannot be loaded', async () => {
    let calls = 0;
    server.use(
      http.post('/api/v1/db/assistant/list', () => {
        calls += 1;
        return calls <= 2
          ? HttpResponse.json({ error: { code: 'internal', message: 'boom' } }, { status: 500 })
          : HttpResponse.json({ data: { assistants: [] } });
      }),
    );
    const user = userEvent.setup();
    renderAssistantRoutes('/assistants');

    expect(await screen.findByText("We couldn't load your assistants.")).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No assistants yet')).toBeInTheDocument();
  });

  it('saves and unsaves an assistant for the team with a toast, and the chip follows', async () => {
    const backend = fakeAssistantBackend({ assistants: [assistant('a1', 'Lesson planner')] });
    const user = userEvent.setup();
    renderAssistantRoutes('/assistants');

    const planner = await card('Lesson planner');
    expect(within(planner).queryByText('Saved for team')).not.toBeInTheDocument();
    await user.click(within(planner).getByRole('button', { name: 'Save Lesson planner for the team' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Assistant saved successfully');
    expect(await within(planner).findByText('Saved for team')).toBeInTheDocument();
    expect(backend.calls.find((c) => c.path === 'db/team/addSavedAssistant')?.body).toEqual({ assistantId: 'a1' });

    await user.click(within(planner).getByRole('button', { name: 'Unsave Lesson planner for the team' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Assistant unsaved successfully'));
    await waitFor(() => expect(within(planner).queryByText('Saved for team')).not.toBeInTheDocument());
    expect(backend.calls.find((c) => c.path === 'db/team/removeSavedAssistant')?.body).toEqual({ assistantId: 'a1' });
  });

  it("says 'Error saving assistant' when saving for the team fails, and the chip stays off", async () => {
    fakeAssistantBackend({
      assistants: [assistant('a1', 'Lesson planner')],
      failing: { 'db/team/addSavedAssistant': { status: 500 } },
    });
    const user = userEvent.setup();
    renderAssistantRoutes('/assistants');

    const planner = await card('Lesson planner');
    await user.click(within(planner).getByRole('button', { name: 'Save Lesson planner for the team' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Error saving assistant');
    expect(within(planner).queryByText('Saved for team')).not.toBeInTheDocument();
  });

  it('asks before deleting, keeps the card on cancel and removes it once confirmed', async () => {
    const backend = fakeAssistantBackend({ assistants: [assistant('a1', 'Lesson planner'), assistant('a3', 'Report writer')] });
    const user = userEvent.setup();
    renderAssistantRoutes('/assistants');

    await user.click(within(await card('Lesson planner')).getByRole('button', { name: 'Delete Lesson planner' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete “Lesson planner”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(backend.paths()).not.toContain('db/assistant/delete');
    expect(screen.getByRole('article', { name: 'Lesson planner' })).toBeInTheDocument();

    await user.click(within(await card('Lesson planner')).getByRole('button', { name: 'Delete Lesson planner' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete “Lesson planner”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    // While the dialog closes the page behind it is hidden from queries: wait until it is gone.
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument(), { timeout: 5000 });
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Lesson planner' })).not.toBeInTheDocument());
    expect(screen.getByRole('article', { name: 'Report writer' })).toBeInTheDocument();
    expect(backend.calls.find((c) => c.path === 'db/assistant/delete')?.body).toEqual({ assistantId: 'a1' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Assistant deleted successfully');
  });

  it("keeps the card and shows the server's reason when it refuses the delete", async () => {
    fakeAssistantBackend({
      assistants: [assistant('a1', 'Lesson planner')],
      failing: { 'db/assistant/delete': { status: 403, message: "Only the assistant's author or the team's owner can change or delete it" } },
    });
    const user = userEvent.setup();
    renderAssistantRoutes('/assistants');

    await user.click(within(await card('Lesson planner')).getByRole('button', { name: 'Delete Lesson planner' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByRole('alert')).toHaveTextContent("Only the assistant's author or the team's owner can change or delete it");
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('article', { name: 'Lesson planner' })).toBeInTheDocument();
  });

  it("makes a copy of a teammate's assistant with the same fields, titled 'Copy of …'", async () => {
    const files = [{ fileName: 'syllabus.pdf', fileText: 'Week 1: fractions', fileType: 'application/pdf' }];
    const backend = fakeAssistantBackend({
      assistants: [
        assistant('a2', 'Quiz maker', {
          isMine: false,
          isSaved: true,
          description: 'Writes quizzes.',
          systemPrompt: 'You write quizzes.',
          initialMessage: 'Which topic?',
          fileData: files,
          imageURL: 'http://localhost:3000/blob/public/t1/0001-quiz.png',
        }),
      ],
    });
    const user = userEvent.setup();
    renderAssistantRoutes('/assistants');

    await user.click(within(await card('Quiz maker')).getByRole('button', { name: 'Make a copy of Quiz maker' }));

    const copy = await card('Copy of Quiz maker');
    expect(within(copy).getByText('Yours')).toBeInTheDocument();
    expect(backend.calls.find((c) => c.path === 'db/assistant/put')?.body).toEqual({
      title: 'Copy of Quiz maker',
      description: 'Writes quizzes.',
      systemPrompt: 'You write quizzes.',
      initialMessage: 'Which topic?',
      fileData: files,
      imageURL: 'http://localhost:3000/blob/public/t1/0001-quiz.png',
    });
    expect(screen.getByRole('alert')).toHaveTextContent('Assistant copied successfully');
  });
});
