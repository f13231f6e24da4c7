import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '../../../testing/server';
import { renderRubricRoutes } from '../testing/render';

describe('rubric list', { timeout: 30_000 }, () => {
  it("lists the team's rubrics with their number of criteria, each opening the editor", async () => {
    server.use(
      http.get('/api/v1/db/rubric/list', () =>
        HttpResponse.json({
          data: {
            rubrics: [
              {
                _id: 'r1',
                name: 'Essay rubric',
                createdAt: '2026-03-01T10:00:00Z',
                updatedAt: '2026-03-02T10:00:00Z',
                criteria: [
                  { criterionDescription: 'A', levelDescriptions: ['x'], useRange: false },
                  { criterionDescription: 'B', levelDescriptions: ['x'], useRange: false },
                ],
              },
              {
                _id: 'r2',
                name: 'Lab report',
                createdAt: '2026-03-01T10:00:00Z',
                updatedAt: '2026-03-01T10:00:00Z',
                criteria: [{ criterionDescription: 'A', levelDescriptions: ['x'], useRange: false }],
              },
            ],
          },
        }),
      ),
    );
    renderRubricRoutes('/rubrics');

    const list = await screen.findByRole('list', { name: 'Rubrics' });
    const links = within(list).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['/rubrics/r1', '/rubrics/r2']);
    expect(links[0]).toHaveTextContent('Essay rubric');
    expect(links[0]).toHaveTextContent('2 criteria');
    expect(links[1]).toHaveTextContent('1 criterion');
    expect(screen.getByRole('link', { name: 'New rubric' })).toHaveAttribute('href', '/rubrics/new');
  });

  it('shows an empty state that leads to a new rubric', async () => {
    server.use(http.get('/api/v1/db/rubric/list', () => HttpResponse.json({ data: { rubrics: [] } })));
    const user = userEvent.setup();
    const { router } = renderRubricRoutes('/rubrics');

    expect(await screen.findByText('No rubrics yet')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Create your first rubric' }));
    expect(router.state.location.pathname).toBe('/rubrics/new');
  });

  it('offers a retry when the list cannot be loaded', async () => {
    let calls = 0;
    server.use(
      http.get('/api/v1/db/rubric/list', () => {
        calls += 1;
        return calls <= 2
          ? HttpResponse.json({ error: { code: 'internal', message: 'boom' } }, { status: 500 })
          : HttpResponse.json({ data: { rubrics: [] } });
      }),
    );
    const user = userEvent.setup();
    renderRubricRoutes('/rubrics');

    expect(await screen.findByText("We couldn't load your rubrics.", {}, { timeout: 4000 })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No rubrics yet')).toBeInTheDocument();
  });
});
