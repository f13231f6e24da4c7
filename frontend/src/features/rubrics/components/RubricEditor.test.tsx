import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '../../../testing/server';
import { renderRubricRoutes } from '../testing/render';
import type { Rubric } from '../types';

const TEAM_ID = 'team-1';

const savedRubric: Rubric = {
  _id: 'rub-1',
  name: 'Essay rubric',
  createdAt: '2026-03-01T10:00:00Z',
  updatedAt: '2026-03-02T10:00:00Z',
  criteria: [
    {
      criterionDescription: 'Thesis',
      levelDescriptions: ['Clear and arguable', 'Vague'],
      useRange: true,
      levelRanges: [
        { levelDescriptionsIndex: 0, min: 4, max: 5 },
        { levelDescriptionsIndex: 1, min: 0, max: 3 },
      ],
    },
    { criterionDescription: 'Evidence', levelDescriptions: ['Strong'], useRange: false },
  ],
};

/** Answers the calls the rubric screens make besides the one under test. */
function backend({ rubrics = [savedRubric] }: { rubrics?: Rubric[] } = {}) {
  server.use(
    http.get('/api/v1/db/rubric/list', () => HttpResponse.json({ data: { rubrics } })),
    http.post('/api/v1/db/rubric/get', async ({ request }) => {
      const { rubricId } = (await request.json()) as { rubricId: string };
      const rubric = rubrics.find((r) => r._id === rubricId);
      return rubric
        ? HttpResponse.json({ data: { rubric } })
        : HttpResponse.json({ error: { code: 'not_found', message: 'Not found' } }, { status: 404 });
    }),
    http.get('/api/v1/db/user/get', () =>
      HttpResponse.json({ data: { user: { _id: 'u1', name: 'Ada', email: 'ada@school.org', team: { _id: TEAM_ID } } } }),
    ),
  );
}

function criterion(number: number) {
  return screen.getByRole('group', { name: `Criterion ${number}` });
}

function descriptions() {
  return screen
    .getAllByRole('textbox', { name: /^Criterion \d+ description$/ })
    .map((field) => (field as HTMLTextAreaElement).value);
}

function levelTexts(group: HTMLElement) {
  return within(group)
    .getAllByRole('textbox', { name: /^Level \d+ description$/ })
    .map((field) => (field as HTMLTextAreaElement).value);
}

describe('rubric editor', { timeout: 30_000 }, () => {
  it('starts a new rubric empty, with the spec\'s defaults only as placeholders', async () => {
    backend();
    renderRubricRoutes('/rubrics/new');

    expect(await screen.findByRole('heading', { name: 'New rubric' })).toBeInTheDocument();
    const name = screen.getByRole('textbox', { name: 'Rubric name' });
    expect(name).toHaveValue('');
    expect(name).toHaveAttribute('placeholder', 'New Rubric Title');
    expect(descriptions()).toEqual(['']);
    expect(screen.getByRole('textbox', { name: 'Criterion 1 description' }).getAttribute('placeholder')).toMatch(/^Criterion Description/);
    expect(levelTexts(criterion(1))).toEqual(['']);
    expect(within(criterion(1)).getByRole('textbox', { name: 'Level 1 description' }).getAttribute('placeholder')).toMatch(/^Level Description/);
    expect(screen.getByText(/^Level 1 is the best\./)).toBeInTheDocument();
  });

  it('says what each level is worth: level 1 is the best', async () => {
    backend();
    const user = userEvent.setup();
    renderRubricRoutes('/rubrics/new');
    await screen.findByRole('heading', { name: 'New rubric' });

    // Levels run best first: without ranges, level 1 of 3 is worth 3 points, the last 1.
    await user.click(within(criterion(1)).getByRole('button', { name: 'Add level' }));
    await user.click(within(criterion(1)).getByRole('button', { name: 'Add level' }));
    const worth = () => within(criterion(1)).getAllByText(/worth/).map((el) => el.textContent);
    expect(worth()).toEqual(['Best level · worth 3 points', 'worth 2 points', 'worth 1 point']);
    // With ranges, the range typed in.
    await user.click(within(criterion(1)).getByRole('switch', { name: 'Point ranges' }));
    await user.type(within(criterion(1)).getByRole('spinbutton', { name: 'Level 1 min points' }), '4');
    await user.type(within(criterion(1)).getByRole('spinbutton', { name: 'Level 1 max points' }), '5');
    expect(worth()[0]).toBe('Best level · worth 4–5 points');
    expect(worth()[1]).toBe('worth the points set below');
  });

  it("marks empty fields with the spec's messages when saved", async () => {
    backend();
    server.use(
      http.post('/api/v1/db/rubric/put', () =>
        HttpResponse.json({ error: { code: 'invalid', message: 'Rubric name cannot be empty' } }, { status: 400 }),
      ),
    );
    const user = userEvent.setup();
    renderRubricRoutes('/rubrics/new');
    await screen.findByRole('heading', { name: 'New rubric' });

    await user.click(screen.getByRole('button', { name: 'Save rubric' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Rubric name cannot be empty');
    expect(screen.getAllByText('Rubric name cannot be empty').length).toBeGreaterThanOrEqual(2);
    expect(screen.getByText('Criterion description cannot be empty')).toBeInTheDocument();
    expect(screen.getByText('Level description cannot be empty')).toBeInTheDocument();
  });

  it('cannot remove the only criterion or the only level', async () => {
    backend();
    renderRubricRoutes('/rubrics/new');
    await screen.findByRole('heading', { name: 'New rubric' });
    // The only criterion and the only level cannot be removed.
    expect(within(criterion(1)).getByRole('button', { name: 'Remove criterion 1' })).toBeDisabled();
    expect(within(criterion(1)).getByRole('button', { name: 'Remove level 1' })).toBeDisabled();
  });

  it('adds, reorders and removes criteria', async () => {
    backend();
    const user = userEvent.setup();
    renderRubricRoutes('/rubrics/new');
    await screen.findByRole('heading', { name: 'New rubric' });

    await user.click(screen.getByRole('button', { name: 'Add criterion' }));
    const second = screen.getByRole('textbox', { name: 'Criterion 2 description' });
    expect(second).toHaveFocus();
    await user.clear(second);
    await user.type(second, 'Use of evidence');
    expect(descriptions()).toEqual(['', 'Use of evidence']);

    await user.click(within(criterion(2)).getByRole('button', { name: 'Move criterion 2 up' }));
    expect(descriptions()).toEqual(['Use of evidence', '']);
    // Focus follows the moved criterion, to the button that can still move it.
    expect(within(criterion(1)).getByRole('button', { name: 'Move criterion 1 down' })).toHaveFocus();

    await user.keyboard('{Enter}');
    expect(descriptions()).toEqual(['', 'Use of evidence']);

    await user.click(within(criterion(1)).getByRole('button', { name: 'Remove criterion 1' }));
    expect(descriptions()).toEqual(['Use of evidence']);
  });

  it('adds, reorders and removes levels within a criterion', async () => {
    backend();
    const user = userEvent.setup();
    renderRubricRoutes('/rubrics/new');
    await screen.findByRole('heading', { name: 'New rubric' });

    await user.click(within(criterion(1)).getByRole('button', { name: 'Add level' }));
    await user.click(within(criterion(1)).getByRole('button', { name: 'Add level' }));
    const third = within(criterion(1)).getByRole('textbox', { name: 'Level 3 description' });
    expect(third).toHaveFocus();
    await user.clear(third);
    await user.type(third, 'Excellent');
    expect(levelTexts(criterion(1))).toEqual(['', '', 'Excellent']);

    await user.click(within(criterion(1)).getByRole('button', { name: 'Move level 3 earlier' }));
    await user.click(within(criterion(1)).getByRole('button', { name: 'Move level 2 earlier' }));
    expect(levelTexts(criterion(1))).toEqual(['Excellent', '', '']);

    await user.click(within(criterion(1)).getByRole('button', { name: 'Move level 1 later' }));
    expect(levelTexts(criterion(1))).toEqual(['', 'Excellent', '']);

    await user.click(within(criterion(1)).getByRole('button', { name: 'Remove level 1' }));
    expect(levelTexts(criterion(1))).toEqual(['Excellent', '']);
  });

  it('shows min and max fields for every level when point ranges are switched on', async () => {
    backend();
    const user = userEvent.setup();
    renderRubricRoutes('/rubrics/new');
    await screen.findByRole('heading', { name: 'New rubric' });
    await user.click(within(criterion(1)).getByRole('button', { name: 'Add level' }));

    expect(within(criterion(1)).queryByRole('spinbutton')).not.toBeInTheDocument();
    await user.click(within(criterion(1)).getByRole('switch', { name: 'Point ranges' }));

    expect(within(criterion(1)).getAllByRole('spinbutton')).toHaveLength(4);
    expect(within(criterion(1)).getByRole('spinbutton', { name: 'Level 2 max points' })).toBeInTheDocument();

    await user.click(within(criterion(1)).getByRole('switch', { name: 'Point ranges' }));
    expect(within(criterion(1)).queryByRole('spinbutton')).not.toBeInTheDocument();
  });

  it('saves a new rubric with the right payload, then shows the rubric list and a toast', async () => {
    backend({ rubrics: [] });
    let body: unknown;
    server.use(
      http.post('/api/v1/db/rubric/put', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ data: { rubric: { ...savedRubric, _id: 'new-1' } } });
      }),
    );
    const user = userEvent.setup();
    const { router } = renderRubricRoutes('/rubrics/new');
    await screen.findByRole('heading', { name: 'New rubric' });

    await user.type(screen.getByRole('textbox', { name: 'Rubric name' }), 'Lab report');
    const first = criterion(1);
    await user.clear(within(first).getByRole('textbox', { name: 'Criterion 1 description' }));
    await user.type(within(first).getByRole('textbox', { name: 'Criterion 1 description' }), 'Method');
    await user.click(within(first).getByRole('button', { name: 'Add level' }));
    await user.click(within(first).getByRole('switch', { name: 'Point ranges' }));
    await user.type(within(first).getByRole('spinbutton', { name: 'Level 1 min points' }), '3');
    await user.type(within(first).getByRole('spinbutton', { name: 'Level 1 max points' }), '4');
    await user.type(within(first).getByRole('spinbutton', { name: 'Level 2 min points' }), '0');
    await user.type(within(first).getByRole('spinbutton', { name: 'Level 2 max points' }), '2.5');
    await user.click(screen.getByRole('button', { name: 'Add criterion' }));

    await user.click(screen.getByRole('button', { name: 'Save rubric' }));

    expect(await screen.findByText('Rubric saved')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Rubrics' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/rubrics');
    expect(body).toEqual({
      name: 'Lab report',
      criteria: [
        {
          criterionDescription: 'Method',
          levelDescriptions: ['', ''],
          useRange: true,
          levelRanges: [
            { levelDescriptionsIndex: 0, min: 3, max: 4 },
            { levelDescriptionsIndex: 1, min: 0, max: 2.5 },
          ],
        },
        { criterionDescription: '', levelDescriptions: [''], useRange: false },
      ],
    });
  });

  it('saves a new rubric once when "Save rubric" is clicked twice quickly', async () => {
    backend({ rubrics: [] });
    let puts = 0;
    server.use(
      http.post('/api/v1/db/rubric/put', () => {
        puts += 1;
        return HttpResponse.json({ data: { rubric: { ...savedRubric, _id: `new-${puts}` } } });
      }),
    );
    const user = userEvent.setup();
    renderRubricRoutes('/rubrics/new');
    await screen.findByRole('heading', { name: 'New rubric' });
    await user.type(screen.getByRole('textbox', { name: 'Rubric name' }), 'Lab report');

    await user.dblClick(screen.getByRole('button', { name: 'Save rubric' }));

    expect(await screen.findByText('Rubric saved')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Rubrics' })).toBeInTheDocument();
    expect(puts).toBe(1);
  });

  it("sends what the teacher typed and shows the server's 400 message as an error toast", async () => {
    backend();
    let body: { criteria: { levelRanges?: unknown }[] } | undefined;
    server.use(
      http.post('/api/v1/db/rubric/put', async ({ request }) => {
        body = (await request.json()) as typeof body;
        return HttpResponse.json(
          { error: { code: 'invalid', message: 'If point ranges are enabled, min and max must be set for each level description' } },
          { status: 400 },
        );
      }),
    );
    const user = userEvent.setup();
    const { router } = renderRubricRoutes('/rubrics/new');
    await screen.findByRole('heading', { name: 'New rubric' });

    await user.clear(within(criterion(1)).getByRole('textbox', { name: 'Level 1 description' }));
    await user.click(within(criterion(1)).getByRole('switch', { name: 'Point ranges' }));
    await user.click(screen.getByRole('button', { name: 'Save rubric' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('If point ranges are enabled, min and max must be set for each level description');
    expect(within(alert).getByTitle('Error')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/rubrics/new');
    // Nothing was blocked on the client: ranges left empty are simply not sent.
    expect(body?.criteria[0]).not.toHaveProperty('levelRanges');
    // The empty level is marked.
    expect(screen.getByText('Level description cannot be empty')).toBeInTheDocument();
  });

  it('sends a range for each level with a value in it, so the server can say which is missing', async () => {
    backend();
    let body: { criteria: { levelRanges?: unknown }[] } | undefined;
    server.use(
      http.post('/api/v1/db/rubric/put', async ({ request }) => {
        body = (await request.json()) as typeof body;
        return HttpResponse.json({ error: { code: 'invalid', message: 'Level range must have both min and max values' } }, { status: 400 });
      }),
    );
    const user = userEvent.setup();
    renderRubricRoutes('/rubrics/new');
    await screen.findByRole('heading', { name: 'New rubric' });
    await user.click(within(criterion(1)).getByRole('button', { name: 'Add level' }));
    await user.click(within(criterion(1)).getByRole('switch', { name: 'Point ranges' }));
    await user.type(within(criterion(1)).getByRole('spinbutton', { name: 'Level 2 min points' }), '1');
    await user.click(screen.getByRole('button', { name: 'Save rubric' }));

    expect(await screen.findByText('Level range must have both min and max values')).toBeInTheDocument();
    expect(body?.criteria[0].levelRanges).toEqual([{ levelDescriptionsIndex: 1, min: 1 }]);
  });

  it('edits a saved rubric and saves it with rubric/update', async () => {
    backend();
    let body: unknown;
    server.use(
      http.post('/api/v1/db/rubric/update', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ data: { rubric: savedRubric } });
      }),
    );
    const user = userEvent.setup();
    const { router } = renderRubricRoutes('/rubrics/rub-1');

    expect(await screen.findByRole('heading', { name: 'Edit rubric' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Rubric name' })).toHaveValue('Essay rubric');
    expect(within(criterion(1)).getByRole('spinbutton', { name: 'Level 1 min points' })).toHaveValue(4);
    expect(within(criterion(1)).getByRole('spinbutton', { name: 'Level 2 max points' })).toHaveValue(3);

    await user.click(within(criterion(1)).getByRole('button', { name: 'Move level 2 earlier' }));
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save rubric' }));

    expect(await screen.findByText('Rubric saved')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/rubrics'));
    expect(body).toEqual({
      rubricId: 'rub-1',
      name: 'Essay rubric',
      criteria: [
        {
          criterionDescription: 'Thesis',
          levelDescriptions: ['Vague', 'Clear and arguable'],
          useRange: true,
          levelRanges: [
            { levelDescriptionsIndex: 0, min: 0, max: 3 },
            { levelDescriptionsIndex: 1, min: 4, max: 5 },
          ],
        },
        { criterionDescription: 'Evidence', levelDescriptions: ['Strong'], useRange: false },
      ],
    });
  });

  it('asks before leaving with unsaved changes', async () => {
    backend();
    const user = userEvent.setup();
    const { router } = renderRubricRoutes('/rubrics/rub-1');
    await screen.findByRole('heading', { name: 'Edit rubric' });

    await user.type(screen.getByRole('textbox', { name: 'Rubric name' }), ' v2');
    await user.click(screen.getByRole('link', { name: 'All rubrics' }));

    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(router.state.location.pathname).toBe('/rubrics/rub-1');

    await user.click(screen.getByRole('link', { name: 'All rubrics' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Leave without saving' }));
    expect(await screen.findByRole('heading', { name: 'Rubrics' })).toBeInTheDocument();
  });

  it('shares a saved rubric by email', async () => {
    backend();
    let body: unknown;
    server.use(
      http.post('/api/v1/db/share/rubric', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ data: { sharedWith: 'grace@other.org' } });
      }),
    );
    const user = userEvent.setup();
    renderRubricRoutes('/rubrics/rub-1');
    await user.click(await screen.findByRole('button', { name: 'Share' }));

    const dialog = await screen.findByRole('dialog', { name: 'Share “Essay rubric”' });
    await user.type(within(dialog).getByRole('textbox', { name: "Colleague's email" }), 'grace@other.org');
    await user.click(within(dialog).getByRole('button', { name: 'Share' }));

    expect(await screen.findByText('Shared with grace@other.org')).toBeInTheDocument();
    expect(body).toEqual({ rubricId: 'rub-1', email: 'grace@other.org' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("shows the server's message when sharing is refused", async () => {
    backend();
    server.use(
      http.post('/api/v1/db/share/rubric', () =>
        HttpResponse.json({ error: { code: 'invalid', message: 'No Markwell teacher uses nobody@x.org yet.' } }, { status: 400 }),
      ),
    );
    const user = userEvent.setup();
    renderRubricRoutes('/rubrics/rub-1');
    await user.click(await screen.findByRole('button', { name: 'Share' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByRole('textbox', { name: "Colleague's email" }), 'nobody@x.org{Enter}');

    expect(await screen.findByText('No Markwell teacher uses nobody@x.org yet.')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: /Share/ })).toBeInTheDocument();
  });

  it('keeps the delete dialog open when deleting fails, and leaves for the list when it works', async () => {
    backend();
    let attempts = 0;
    let body: unknown;
    server.use(
      http.post('/api/v1/db/team/delete-rubric', async ({ request }) => {
        attempts += 1;
        body = await request.json();
        return attempts === 1
          ? HttpResponse.json({ error: { code: 'internal', message: 'boom' } }, { status: 500 })
          : HttpResponse.json({ data: { success: true } });
      }),
    );
    const user = userEvent.setup();
    const { router } = renderRubricRoutes('/rubrics/rub-1');
    await user.click(await screen.findByRole('button', { name: 'Delete' }));

    const dialog = await screen.findByRole('dialog', { name: 'Delete “Essay rubric”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete rubric' }));
    await waitFor(() => expect(attempts).toBe(1));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Delete rubric' })).toBeEnabled());
    expect(screen.getByRole('dialog', { name: 'Delete “Essay rubric”?' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(body).toEqual({ teamId: TEAM_ID, rubricId: 'rub-1' });

    await user.click(within(dialog).getByRole('button', { name: 'Delete rubric' }));
    expect(await screen.findByText('Rubric deleted')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/rubrics'));
  });

  it('shows why the rubric cannot be deleted and stays on the rubric', async () => {
    backend();
    const refusal = 'This rubric is used by “Essay 3” and “Argument essay”. Choose another rubric for them or delete them first.';
    server.use(
      http.post('/api/v1/db/team/delete-rubric', () =>
        HttpResponse.json({ error: { code: 'conflict', message: refusal } }, { status: 409 }),
      ),
    );
    const user = userEvent.setup();
    const { router } = renderRubricRoutes('/rubrics/rub-1');
    await user.click(await screen.findByRole('button', { name: 'Delete' }));

    const dialog = await screen.findByRole('dialog', { name: 'Delete “Essay rubric”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete rubric' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(refusal);
    expect(screen.queryByText('Rubric deleted')).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/rubrics/rub-1');

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(within(await screen.findByRole('dialog', { name: 'Delete “Essay rubric”?' })).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says so when the rubric does not exist', async () => {
    backend();
    renderRubricRoutes('/rubrics/missing');
    expect(await screen.findByRole('heading', { name: 'Rubric not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to rubrics' })).toHaveAttribute('href', '/rubrics');
  });
});
