import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { server } from '../../../testing/server';
import { PENDING_TOAST_KEY } from '../pending-toast';
import { assignment, fakeBackend, renderLibrary, rubric, TEAM_ID } from '../testing/render';
import type { Library } from '../types';

function sampleLibrary(): Library {
  return {
    assignments: [
      assignment('a1', 'Macbeth essay', 'feedback', '2026-03-05T10:00:00Z'),
      assignment('a2', 'Fractions quiz', 'grade', '2026-03-04T10:00:00Z'),
      assignment('a3', 'Persuasive letter', 'rubric-feedback', '2026-03-03T10:00:00Z'),
      assignment('a4', 'Poem reflection', 'prompt', '2026-03-02T10:00:00Z'),
    ],
    rubrics: [rubric('r1', 'Essay rubric')],
    folders: [
      { _id: 'f1', name: 'Year 9 English', assignments: ['a1'] },
      { _id: 'f2', name: 'Maths', assignments: [] },
    ],
  };
}

/** Names of the assignments listed outside any folder (also while a dialog hides the page). */
function topLevelNames() {
  const list = screen.queryByRole('list', { name: /^Assignments( not in a folder)?$/, hidden: true });
  return list ? within(list).getAllByRole('link', { hidden: true }).map((link) => link.textContent) : [];
}

async function openFolder(name: string) {
  const toggle = await screen.findByRole('button', { name: new RegExp(`^${name},`) });
  if (toggle.getAttribute('aria-expanded') !== 'true') await userEvent.click(toggle);
  return screen.findByRole('list', { name: `Assignments in ${name}` });
}

async function chooseAction(itemName: string, action: string) {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: `Actions for ${itemName}` }));
  await user.click(await screen.findByRole('menuitem', { name: action }));
}

describe('library', { timeout: 30_000 }, () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
  });

  it('lists folders with their assignments, then top-level assignments, then rubrics', async () => {
    fakeBackend(sampleLibrary());
    renderLibrary();

    expect(await screen.findByRole('heading', { name: 'Library' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Maths, 0 assignments' })).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByRole('button', { name: 'Year 9 English, 1 assignment' })).toBeInTheDocument();
    expect(topLevelNames()).toEqual(['Fractions quiz', 'Persuasive letter', 'Poem reflection']);

    const folder = await openFolder('Year 9 English');
    expect(within(folder).getByRole('link', { name: 'Macbeth essay' })).toHaveAttribute('href', '/assignment/a1');
    expect(within(folder).getAllByText('Feedback').length).toBeGreaterThan(0);

    const rubrics = screen.getByRole('list', { name: 'Rubrics' });
    expect(within(rubrics).getByRole('link', { name: 'Essay rubric' })).toHaveAttribute('href', '/rubrics/r1');
    expect(within(rubrics).getByText('2 criteria')).toBeInTheDocument();
  });

  it('searches by name and filters by type', async () => {
    fakeBackend(sampleLibrary());
    const user = userEvent.setup();
    renderLibrary();
    await screen.findByRole('button', { name: /^Maths,/ });

    await user.type(screen.getByRole('searchbox', { name: 'Search library' }), 'ess');
    // "Macbeth essay" sits in a folder, which opens to show it; "Essay rubric" matches too.
    const folder = await screen.findByRole('list', { name: 'Assignments in Year 9 English' });
    expect(within(folder).getByRole('link', { name: 'Macbeth essay' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Maths,/ })).not.toBeInTheDocument();
    expect(topLevelNames()).toEqual([]);
    expect(screen.getByRole('link', { name: 'Essay rubric' })).toBeInTheDocument();

    await user.clear(screen.getByRole('searchbox', { name: 'Search library' }));
    const filters = screen.getByRole('group', { name: 'Filter by type' });
    await user.click(within(filters).getByRole('button', { name: 'Grade' }));
    expect(within(filters).getByRole('button', { name: 'Grade' })).toHaveAttribute('aria-pressed', 'true');
    expect(topLevelNames()).toEqual(['Fractions quiz']);
    expect(screen.queryByRole('link', { name: 'Essay rubric' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Year 9 English,/ })).not.toBeInTheDocument();

    await user.click(within(filters).getByRole('button', { name: 'Rubrics' }));
    expect(topLevelNames()).toEqual([]);
    expect(screen.getByRole('link', { name: 'Essay rubric' })).toBeInTheDocument();

    await user.click(within(filters).getByRole('button', { name: 'All' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search library' }), 'zebra');
    expect(screen.getByText('Nothing matches “zebra”.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear search and filters' }));
    expect(topLevelNames()).toHaveLength(3);
  });

  it('creates a folder', async () => {
    const backend = fakeBackend(sampleLibrary());
    const user = userEvent.setup();
    renderLibrary();
    await screen.findByRole('button', { name: /^Maths,/ });

    await user.click(screen.getByRole('button', { name: 'New folder' }));
    const dialog = await screen.findByRole('dialog', { name: 'New folder' });
    expect(within(dialog).getByRole('button', { name: 'Create folder' })).toBeDisabled();
    await user.type(within(dialog).getByRole('textbox', { name: 'Folder name' }), 'Year 10 History');
    await user.click(within(dialog).getByRole('button', { name: 'Create folder' }));

    expect(await screen.findByText('Folder created successfully')).toBeInTheDocument();
    expect(backend.bodies('team/create-folder')).toEqual([{ teamId: TEAM_ID, folderName: 'Year 10 History' }]);
    expect(await screen.findByRole('button', { name: 'Year 10 History, 0 assignments' })).toBeInTheDocument();
  });

  it('refuses a folder name the team already has, whatever its case', async () => {
    const backend = fakeBackend(sampleLibrary());
    const user = userEvent.setup();
    renderLibrary();
    await screen.findByRole('button', { name: /^Maths,/ });

    await user.click(screen.getByRole('button', { name: 'New folder' }));
    const dialog = await screen.findByRole('dialog', { name: 'New folder' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Folder name' }), ' maths ');
    expect(within(dialog).getByText('There is already a folder named “Maths”.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Create folder' })).toBeDisabled();
    await user.keyboard('{Enter}');
    expect(backend.bodies('team/create-folder')).toEqual([]);
  });

  it('renames a folder, keeping its assignments', async () => {
    const backend = fakeBackend(sampleLibrary());
    const user = userEvent.setup();
    renderLibrary();

    await chooseAction('folder Year 9 English', 'Rename folder');
    const dialog = await screen.findByRole('dialog', { name: 'Rename folder' });
    const field = within(dialog).getByRole('textbox', { name: 'Folder name' });
    expect(field).toHaveValue('Year 9 English');
    await user.clear(field);
    await user.type(field, 'Maths');
    expect(within(dialog).getByRole('button', { name: 'Rename' })).toBeDisabled();
    await user.clear(field);
    await user.type(field, 'Year 9 English, set 2{Enter}');

    expect(await screen.findByText('Folder renamed')).toBeInTheDocument();
    expect(backend.bodies('team/update-folders')).toEqual([
      {
        teamId: TEAM_ID,
        newFolders: [
          { _id: 'f1', name: 'Year 9 English, set 2', assignments: ['a1'] },
          { _id: 'f2', name: 'Maths', assignments: [] },
        ],
      },
    ]);
    expect(await openFolder('Year 9 English, set 2')).toHaveTextContent('Macbeth essay');
  });

  it('creates one folder when "Create folder" is clicked twice quickly', async () => {
    const backend = fakeBackend(sampleLibrary());
    const user = userEvent.setup();
    renderLibrary();
    await user.click(await screen.findByRole('button', { name: 'New folder' }));
    const dialog = await screen.findByRole('dialog', { name: 'New folder' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Folder name' }), 'Year 10 History');

    const create = within(dialog).getByRole('button', { name: 'Create folder' });
    fireEvent.click(create);
    fireEvent.click(create);

    expect(await screen.findByText('Folder created successfully')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Year 10 History, 0 assignments' })).toBeInTheDocument();
    expect(backend.bodies('team/create-folder')).toEqual([{ teamId: TEAM_ID, folderName: 'Year 10 History' }]);
  });

  it('says so when a folder cannot be created', async () => {
    const backend = fakeBackend(sampleLibrary());
    backend.fail('team/create-folder');
    const user = userEvent.setup();
    renderLibrary();
    await user.click(await screen.findByRole('button', { name: 'New folder' }));
    await user.type(within(await screen.findByRole('dialog')).getByRole('textbox', { name: 'Folder name' }), 'X{Enter}');

    expect(await screen.findByText('Error creating folder')).toBeInTheDocument();
  });

  it('moves an assignment into a folder and back out, sending the whole folder list each time', async () => {
    const backend = fakeBackend(sampleLibrary());
    const user = userEvent.setup();
    renderLibrary();
    await screen.findByRole('button', { name: /^Maths,/ });

    await chooseAction('Fractions quiz', 'Move to folder…');
    let dialog = await screen.findByRole('dialog', { name: 'Move “Fractions quiz”' });
    expect(within(dialog).getByRole('radio', { name: 'Top level (current)' })).toBeChecked();
    await user.click(within(dialog).getByRole('radio', { name: 'Maths' }));
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));

    expect(await screen.findByText('Assignment moved successfully')).toBeInTheDocument();
    expect(backend.bodies('team/update-folders')[0]).toEqual({
      teamId: TEAM_ID,
      newFolders: [
        { _id: 'f1', name: 'Year 9 English', assignments: ['a1'] },
        { _id: 'f2', name: 'Maths', assignments: ['a2'] },
      ],
    });
    // The target folder opens to show where the assignment went.
    const maths = await screen.findByRole('list', { name: 'Assignments in Maths' });
    expect(within(maths).getByRole('link', { name: 'Fractions quiz' })).toBeInTheDocument();
    expect(topLevelNames()).not.toContain('Fractions quiz');

    // From one folder to another: it leaves the first.
    await chooseAction('Fractions quiz', 'Move to folder…');
    dialog = await screen.findByRole('dialog', { name: 'Move “Fractions quiz”' });
    await user.click(within(dialog).getByRole('radio', { name: 'Year 9 English' }));
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));
    await waitFor(() => expect(backend.bodies('team/update-folders')).toHaveLength(2));
    expect(backend.bodies('team/update-folders')[1]).toEqual({
      teamId: TEAM_ID,
      newFolders: [
        { _id: 'f1', name: 'Year 9 English', assignments: ['a1', 'a2'] },
        { _id: 'f2', name: 'Maths', assignments: [] },
      ],
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    // And out to the top level.
    await chooseAction('Fractions quiz', 'Move to folder…');
    dialog = await screen.findByRole('dialog', { name: 'Move “Fractions quiz”' });
    expect(within(dialog).getByRole('radio', { name: 'Year 9 English (current)' })).toBeChecked();
    await user.click(within(dialog).getByRole('radio', { name: 'Top level' }));
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));
    await waitFor(() => expect(backend.bodies('team/update-folders')).toHaveLength(3));
    expect(backend.bodies('team/update-folders')[2]).toEqual({
      teamId: TEAM_ID,
      newFolders: [
        { _id: 'f1', name: 'Year 9 English', assignments: ['a1'] },
        { _id: 'f2', name: 'Maths', assignments: [] },
      ],
    });
    await waitFor(() => expect(topLevelNames()).toContain('Fractions quiz'));
  });

  it('moves an assignment by dragging it onto a folder, and out again onto the list', async () => {
    const backend = fakeBackend(sampleLibrary());
    renderLibrary();
    const data = new Map<string, string>();
    const dataTransfer = {
      setData: (type: string, value: string) => data.set(type, value),
      getData: (type: string) => data.get(type) ?? '',
      get types() {
        return [...data.keys()];
      },
      effectAllowed: 'all',
      dropEffect: 'none',
    };

    const row = (await screen.findByRole('link', { name: 'Fractions quiz' })).closest('[draggable="true"]')!;
    const maths = screen.getByRole('region', { name: 'Folder Maths' });
    fireEvent.dragStart(row, { dataTransfer });
    fireEvent.dragOver(maths, { dataTransfer });
    fireEvent.drop(maths, { dataTransfer });
    fireEvent.dragEnd(row, { dataTransfer });

    expect(await screen.findByText('Assignment moved successfully')).toBeInTheDocument();
    expect(backend.bodies('team/update-folders')[0]).toEqual({
      teamId: TEAM_ID,
      newFolders: [
        { _id: 'f1', name: 'Year 9 English', assignments: ['a1'] },
        { _id: 'f2', name: 'Maths', assignments: ['a2'] },
      ],
    });

    data.clear();
    const moved = within(await screen.findByRole('list', { name: 'Assignments in Maths' })).getByRole('link', { name: 'Fractions quiz' });
    const movedRow = moved.closest('[draggable="true"]')!;
    fireEvent.dragStart(movedRow, { dataTransfer });
    const topLevel = screen.getByRole('list', { name: 'Assignments not in a folder' });
    fireEvent.dragOver(topLevel, { dataTransfer });
    fireEvent.drop(topLevel, { dataTransfer });
    await waitFor(() => expect(backend.bodies('team/update-folders')).toHaveLength(2));
    expect(backend.bodies('team/update-folders')[1]).toEqual({
      teamId: TEAM_ID,
      newFolders: [
        { _id: 'f1', name: 'Year 9 English', assignments: ['a1'] },
        { _id: 'f2', name: 'Maths', assignments: [] },
      ],
    });
  });

  it('says so when a move fails, and keeps the dialog open', async () => {
    const backend = fakeBackend(sampleLibrary());
    backend.fail('team/update-folders');
    const user = userEvent.setup();
    renderLibrary();
    await chooseAction('Fractions quiz', 'Move to folder…');
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('radio', { name: 'Maths' }));
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));

    expect(await screen.findByText('Error moving assignment')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Move “Fractions quiz”' })).toBeInTheDocument();
    expect(topLevelNames()).toContain('Fractions quiz');
  });

  it('deletes a folder and brings its assignments back to the top level', async () => {
    const backend = fakeBackend(sampleLibrary());
    const user = userEvent.setup();
    renderLibrary();
    expect(topLevelNames()).not.toContain('Macbeth essay');

    await chooseAction('folder Year 9 English', 'Delete folder');
    const dialog = await screen.findByRole('dialog', { name: 'Delete folder “Year 9 English”?' });
    expect(dialog).toHaveTextContent('Its assignment moves back to the top of the library. No assignment is deleted.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete folder' }));

    expect(await screen.findByText('Folder deleted successfully')).toBeInTheDocument();
    expect(backend.bodies('team/update-folders')).toEqual([
      { teamId: TEAM_ID, newFolders: [{ _id: 'f2', name: 'Maths', assignments: [] }] },
    ]);
    expect(screen.queryByRole('button', { name: /^Year 9 English,/ })).not.toBeInTheDocument();
    await waitFor(() => expect(topLevelNames()).toContain('Macbeth essay'));
  });

  it('says so when a folder cannot be deleted', async () => {
    const backend = fakeBackend(sampleLibrary());
    backend.fail('team/update-folders');
    const user = userEvent.setup();
    renderLibrary();
    await chooseAction('folder Maths', 'Delete folder');
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete folder' }));

    expect(await screen.findByText('Error deleting folder')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Delete folder “Maths”?' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Maths,/, hidden: true })).toBeInTheDocument();
  });

  it('duplicates an assignment and opens the copy', async () => {
    const backend = fakeBackend(sampleLibrary());
    const { router } = renderLibrary();

    await chooseAction('Poem reflection', 'Duplicate');

    expect(await screen.findByText('Assignment duplicated')).toBeInTheDocument();
    expect(backend.bodies('assignment/duplicate')).toEqual([{ assignmentId: 'a4' }]);
    await waitFor(() => expect(router.state.location.pathname).toMatch(/^\/assignment\/copy-\d+$/));
  });

  it('duplicates once when "Duplicate" is clicked twice quickly', async () => {
    const backend = fakeBackend(sampleLibrary());
    const user = userEvent.setup();
    const { router } = renderLibrary();

    await user.click(await screen.findByRole('button', { name: 'Actions for Poem reflection' }));
    const duplicate = await screen.findByRole('menuitem', { name: 'Duplicate' });
    // The menu closes on the first click, but a fast second click still reaches the item.
    fireEvent.click(duplicate);
    fireEvent.click(duplicate);

    expect(await screen.findByText('Assignment duplicated')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toMatch(/^\/assignment\/copy-\d+$/));
    expect(backend.bodies('assignment/duplicate')).toEqual([{ assignmentId: 'a4' }]);
  });

  it('keeps the delete dialog open, without an error toast, when deleting fails', async () => {
    const backend = fakeBackend(sampleLibrary());
    backend.fail('team/delete-assignment');
    const user = userEvent.setup();
    renderLibrary();

    await chooseAction('Fractions quiz', 'Delete');
    const dialog = await screen.findByRole('dialog', { name: 'Delete “Fractions quiz”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete assignment' }));
    await waitFor(() => expect(backend.bodies('team/delete-assignment')).toEqual([{ teamId: TEAM_ID, assignmentId: 'a2' }]));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Delete assignment' })).toBeEnabled());
    expect(screen.getByRole('dialog', { name: 'Delete “Fractions quiz”?' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    backend.heal('team/delete-assignment');
    await user.click(within(dialog).getByRole('button', { name: 'Delete assignment' }));
    expect(await screen.findByText('Assignment deleted')).toBeInTheDocument();
    await waitFor(() => expect(topLevelNames()).not.toContain('Fractions quiz'));
  });

  it('deletes a rubric after confirmation', async () => {
    const backend = fakeBackend(sampleLibrary());
    const user = userEvent.setup();
    renderLibrary();

    await chooseAction('Essay rubric', 'Delete');
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete “Essay rubric”?' })).getByRole('button', { name: 'Delete rubric' }));

    expect(await screen.findByText('Rubric deleted')).toBeInTheDocument();
    expect(backend.bodies('team/delete-rubric')).toEqual([{ teamId: TEAM_ID, rubricId: 'r1' }]);
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Essay rubric' })).not.toBeInTheDocument());
  });

  it('shows the refusal in the dialog and keeps the rubric when an assignment still uses it', async () => {
    const backend = fakeBackend(sampleLibrary());
    const refusal = 'This rubric is used by “Persuasive letter”. Choose another rubric for it or delete it first.';
    let attempts = 0;
    server.use(
      http.post('/api/v1/db/team/delete-rubric', () => {
        attempts += 1;
        return HttpResponse.json({ error: { code: 'conflict', message: refusal } }, { status: 409 });
      }),
    );
    const user = userEvent.setup();
    renderLibrary();

    await chooseAction('Essay rubric', 'Delete');
    const dialog = await screen.findByRole('dialog', { name: 'Delete “Essay rubric”?' });
    expect(dialog).toHaveTextContent("A rubric that an assignment still grades against can't be deleted");
    expect(dialog).not.toHaveTextContent('may stop working');
    await user.click(within(dialog).getByRole('button', { name: 'Delete rubric' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(refusal);
    expect(attempts).toBe(1);
    expect(screen.getByRole('dialog', { name: 'Delete “Essay rubric”?' })).toBeInTheDocument();
    expect(screen.queryByText('Rubric deleted')).not.toBeInTheDocument();
    expect(backend.state.rubrics.map((r) => r._id)).toEqual(['r1']);

    // Closed and opened again, the dialog starts afresh; the rubric is still listed.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('link', { name: 'Essay rubric' })).toBeInTheDocument();
    await chooseAction('Essay rubric', 'Delete');
    const again = await screen.findByRole('dialog', { name: 'Delete “Essay rubric”?' });
    expect(within(again).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shares an assignment by email', async () => {
    const backend = fakeBackend(sampleLibrary());
    const user = userEvent.setup();
    renderLibrary();

    await chooseAction('Fractions quiz', 'Share…');
    const dialog = await screen.findByRole('dialog', { name: 'Share “Fractions quiz”' });
    await user.type(within(dialog).getByRole('textbox', { name: "Colleague's email" }), 'grace@other.org');
    await user.click(within(dialog).getByRole('button', { name: 'Share' }));

    expect(await screen.findByText('Shared with grace@other.org')).toBeInTheDocument();
    expect(backend.bodies('share/assignment')).toEqual([{ assignmentId: 'a2', email: 'grace@other.org' }]);
  });

  it('offers the four assignment types and a new rubric', async () => {
    fakeBackend(sampleLibrary());
    const user = userEvent.setup();
    const { router } = renderLibrary();

    expect(await screen.findByRole('link', { name: 'New rubric' })).toHaveAttribute('href', '/rubrics/new');
    await user.click(screen.getByRole('button', { name: 'New assignment' }));
    const items = await screen.findAllByRole('menuitem');
    expect(items.map((item) => item.getAttribute('aria-label'))).toEqual(['Feedback', 'Grade', 'Rubric feedback', 'Prompt']);
    expect(items.map((item) => item.getAttribute('href'))).toEqual([
      '/assignments/new/feedback',
      '/assignments/new/grade',
      '/assignments/new/rubric-feedback',
      '/assignments/new/prompt',
    ]);
    await user.click(screen.getByRole('menuitem', { name: 'Rubric feedback' }));
    expect(router.state.location.pathname).toBe('/assignments/new/rubric-feedback');
  });

  it('shows the empty state for an empty library', async () => {
    fakeBackend({ assignments: [], rubrics: [], folders: [] });
    renderLibrary();
    expect(await screen.findByText("Your team's assignments and rubrics will appear here.")).toBeInTheDocument();
    expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();
  });

  it('offers a retry when the library cannot be loaded', async () => {
    fakeBackend({ assignments: [], rubrics: [], folders: [] });
    let calls = 0;
    server.use(
      http.get('/api/v1/db/library/get', () => {
        calls += 1;
        return calls <= 2
          ? HttpResponse.json({ error: { code: 'internal', message: 'boom' } }, { status: 500 })
          : HttpResponse.json({ data: { assignments: [assignment('a1', 'Back again', 'grade')], rubrics: [], folders: [] } });
      }),
    );
    const user = userEvent.setup();
    renderLibrary();

    expect(await screen.findByText("We couldn't load your library.", {}, { timeout: 4000 })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'Back again' })).toBeInTheDocument();
  });

  it('shows a toast stashed before the page reloaded', async () => {
    fakeBackend(sampleLibrary());
    sessionStorage.setItem(PENDING_TOAST_KEY, JSON.stringify({ type: 'success', message: 'Rubric copied successfully' }));
    renderLibrary();

    expect(await screen.findByText('Rubric copied successfully')).toBeInTheDocument();
    expect(sessionStorage.getItem(PENDING_TOAST_KEY)).toBeNull();
  });
});
