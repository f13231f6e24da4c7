import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '../../../testing/server';
import { renderToolsPage, serveCatalog } from '../testing/render';

describe('tools catalogue', { timeout: 30_000 }, () => {
  it('lists the tools and the workflows, each card leading to its chat or form', async () => {
    serveCatalog();
    const user = userEvent.setup();
    const { router } = renderToolsPage();

    expect(screen.getByRole('heading', { level: 1, name: 'Tools' })).toBeInTheDocument();
    const tools = await screen.findByRole('list', { name: 'Tools' });
    const toolCards = within(tools).getAllByRole('article');
    expect(toolCards.map((card) => within(card).getByRole('heading').textContent)).toEqual([
      'Lesson planner',
      'Quiz maker',
      'Parent letter',
      'Rubric from an assignment sheet',
    ]);
    expect(toolCards[0]).toHaveTextContent('Plans a lesson with you, step by step.');
    expect(within(tools).getByRole('link', { name: 'Start Lesson planner' })).toHaveAttribute('href', '/tools/lesson-planner/chat');
    expect(within(tools).getByRole('link', { name: 'Start Quiz maker' })).toHaveAttribute('href', '/tools/quiz-maker/chat');
    expect(within(tools).getByRole('link', { name: 'Start Parent letter' })).toHaveAttribute('href', '/tools/parent-letter/chat');
    // The rubric tool opens a dialog, not a chat.
    expect(within(tools).queryByRole('link', { name: 'Start Rubric from an assignment sheet' })).not.toBeInTheDocument();
    expect(within(tools).getByRole('button', { name: 'Start Rubric from an assignment sheet' })).toBeInTheDocument();

    const workflows = screen.getByRole('list', { name: 'Workflows' });
    expect(within(workflows).getAllByRole('article')).toHaveLength(2);
    expect(within(workflows).getByRole('link', { name: 'Start Lesson plan' })).toHaveAttribute('href', '/workflows/lesson-plan');
    expect(workflows).toHaveTextContent('Paste a text and get a quiz about it.');
    await user.click(within(workflows).getByRole('link', { name: 'Start Quiz from a text' }));
    expect(router.state.location.pathname).toBe('/workflows/quiz-from-text');

    await router.navigate(-1);
    await user.click(await screen.findByRole('link', { name: 'Start Quiz maker' }));
    expect(router.state.location.pathname).toBe('/tools/quiz-maker/chat');
  });

  it('offers a retry when the catalogue cannot be loaded', async () => {
    let calls = 0;
    server.use(
      http.get('/api/v1/catalog', () => {
        calls += 1;
        return calls <= 2
          ? HttpResponse.json({ error: { code: 'internal', message: 'boom' } }, { status: 500 })
          : HttpResponse.json({ data: { tools: [], workflows: [] } });
      }),
    );
    const user = userEvent.setup();
    renderToolsPage();

    expect(await screen.findByText("We couldn't load the tools.")).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Workflows' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No tools are available yet.')).toBeInTheDocument();
    expect(screen.getByText('No workflows are available yet.')).toBeInTheDocument();
  });
});
