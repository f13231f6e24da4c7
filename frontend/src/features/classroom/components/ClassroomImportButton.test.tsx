import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { browserLocation } from '../../../lib/navigation';
import { apiError, ASSIGNMENT_ID, fakeClassroom } from '../testing/fake-classroom';
import { renderClassroom } from '../testing/render';

const PAGE = `/assignment/${ASSIGNMENT_ID}`;
const RECONNECT = 'Google Classroom access has expired or was revoked. Please connect Google Classroom again.';

function stubNavigation() {
  return vi.spyOn(browserLocation, 'assign').mockImplementation(() => {});
}

/** The global toast, which a dialog hides from the accessibility tree while it is open. */
async function findToast() {
  return waitFor(() => {
    const toast = screen.getAllByRole('alert', { hidden: true }).find((el) => !el.closest('[role="dialog"]'));
    expect(toast).toBeDefined();
    return toast!;
  });
}

async function openPicker(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'Google Classroom' }));
  return screen.findByRole('dialog', { name: 'Import from Google Classroom' });
}

afterEach(() => vi.restoreAllMocks());

describe('Google Classroom import', { timeout: 30_000 }, () => {
  it('is disabled on a server without Google, and says why', async () => {
    fakeClassroom({ status: { configured: false, connected: false, reason: 'Google sign-in is not configured on this server' } });
    const user = userEvent.setup();
    renderClassroom(PAGE);

    // The button spins while the server is asked.
    await screen.findByRole('button', { name: 'Google Classroom' });
    await waitFor(() => expect(screen.queryByRole('progressbar')).not.toBeInTheDocument());
    const button = screen.getByRole('button', { name: 'Google Classroom' });
    expect(button).toBeDisabled();
    await user.hover(button.parentElement!);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Google sign-in is not configured on this server');
    // Keyboard users can reach it (the tooltip opens on focus in a browser).
    await user.unhover(button.parentElement!);
    await user.tab();
    expect(button.parentElement).toHaveFocus();
  });

  it('explains what will be asked, then goes to Google and back to this page', async () => {
    const backend = fakeClassroom({ status: { connected: false, reason: "Connect Google Classroom to import your students' work." } });
    const assign = stubNavigation();
    const user = userEvent.setup();
    renderClassroom(`${PAGE}?tab=submissions`);

    const dialog = await openPicker(user);
    expect(within(dialog).getByText("Connect Google Classroom to import your students' work.")).toBeInTheDocument();
    expect(within(dialog).getByText(/see the assignments of your classes and the work your students turned in/i)).toBeInTheDocument();
    expect(within(dialog).getByText(/never changes anything in Classroom or Drive/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Connect Google Classroom' }));

    expect(assign).toHaveBeenCalledWith(`/api/v1/google/classroom/connect?returnTo=${encodeURIComponent(`${PAGE}?tab=submissions`)}`);
    expect(backend.bodies('google/classroom/courses')).toEqual([]);
  });

  it('picks a class, an assignment and the work, imports it and lists what was skipped', async () => {
    const backend = fakeClassroom({
      skipped: [{ submissionId: 's2', studentName: 'Ben Cho', title: 'marks.xlsx', reason: 'Markwell cannot read this kind of file.' }],
    });
    const user = userEvent.setup();
    renderClassroom(PAGE);

    const dialog = await openPicker(user);
    const importButton = within(dialog).getByRole('button', { name: 'Import' });
    expect(importButton).toBeDisabled();
    await user.selectOptions(await within(dialog).findByRole('combobox', { name: 'Class' }), 'History (9B)');
    await user.selectOptions(await within(dialog).findByRole('combobox', { name: 'Assignment' }), 'Causes of WW1 essay');

    const work = await within(dialog).findByRole('group', { name: 'Turned-in work (3)' });
    const ann = within(work).getByRole('checkbox', { name: 'Ann Lee' });
    expect(ann).toHaveAccessibleDescription('ann@school.org Ann essay.pdf');
    expect(within(work).getByRole('checkbox', { name: 'Ben Cho' })).toHaveAccessibleDescription(
      'ben@school.org Ben essay, marks.xlsx Already returned in Classroom',
    );
    expect(within(work).getByRole('checkbox', { name: 'Cy Diaz' })).toHaveAccessibleDescription('cy@school.org No files attached');

    await user.click(within(work).getByRole('checkbox', { name: 'Select all' }));
    expect(within(work).getAllByRole('checkbox', { checked: true })).toHaveLength(4);
    await user.click(within(work).getByRole('checkbox', { name: 'Cy Diaz' }));
    expect(within(work).getByRole('checkbox', { name: 'Select all' })).toBePartiallyChecked();
    await user.click(within(dialog).getByRole('button', { name: 'Import 2 submissions' }));

    expect(await findToast()).toHaveTextContent('Imported 2 submissions, 1 skipped');
    expect(backend.bodies('db/assignment/update-submissions-from-google')).toEqual([
      { assignmentId: ASSIGNMENT_ID, type: 'grade', classId: 'c1', courseworkId: 'w1', selectedStudentSubmissions: ['s1', 's2'] },
    ]);
    expect(backend.bodies('google/classroom/submissions')).toEqual([{ classId: 'c1', courseworkId: 'w1' }]);
    // The reasons stay in the dialog.
    const notImported = within(dialog).getByRole('list', { name: 'Not imported' });
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Imported 2 submissions, 1 skipped');
    expect(within(notImported).getByRole('listitem')).toHaveTextContent('Ben Cho – marks.xlsx: Markwell cannot read this kind of file.');
    // Nothing stays selected, so the same work is not imported twice by accident.
    expect(within(dialog).getByRole('button', { name: 'Import' })).toBeDisabled();

    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The page's assignment was refetched and lists the new work.
    const list = screen.getByRole('list', { name: 'Submissions' });
    expect(await within(list).findByText('Ann Lee: Ann essay.pdf')).toBeInTheDocument();
    expect(within(list).getByText('Ben Cho: Ben essay')).toBeInTheDocument();
    expect(within(list).queryByText(/marks\.xlsx/)).not.toBeInTheDocument();
  });

  it('works from the keyboard and closes when everything was imported', async () => {
    const backend = fakeClassroom();
    const user = userEvent.setup();
    renderClassroom(PAGE);

    const button = await screen.findByRole('button', { name: 'Google Classroom' });
    await waitFor(() => expect(button).toBeEnabled());
    button.focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Import from Google Classroom' });
    await user.selectOptions(await within(dialog).findByRole('combobox', { name: 'Class' }), 'History (9B)');
    await user.selectOptions(await within(dialog).findByRole('combobox', { name: 'Assignment' }), 'Causes of WW1 essay');
    await within(dialog).findByRole('group', { name: 'Turned-in work (3)' });

    await user.tab();
    expect(within(dialog).getByRole('checkbox', { name: 'Select all' })).toHaveFocus();
    await user.tab();
    expect(within(dialog).getByRole('checkbox', { name: 'Ann Lee' })).toHaveFocus();
    await user.keyboard(' ');
    expect(within(dialog).getByRole('checkbox', { name: 'Ann Lee' })).toBeChecked();
    within(dialog).getByRole('button', { name: 'Import 1 submission' }).focus();
    await user.keyboard('{Enter}');

    expect(await screen.findByRole('alert')).toHaveTextContent(/Imported 1 submission$/);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(backend.bodies('db/assignment/update-submissions-from-google')).toHaveLength(1);
  });

  it('asks to connect again when Google refused the connection', async () => {
    fakeClassroom({ courses: () => apiError(409, RECONNECT, 'conflict') });
    const assign = stubNavigation();
    const user = userEvent.setup();
    renderClassroom(PAGE);

    const dialog = await openPicker(user);
    expect(await within(dialog).findByText(RECONNECT)).toBeInTheDocument();
    expect(within(dialog).queryByRole('combobox', { name: 'Class' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Connect again' }));
    expect(assign).toHaveBeenCalledWith(`/api/v1/google/classroom/connect?returnTo=${encodeURIComponent(PAGE)}`);
  });

  it("shows the server's message when Google does not answer, and tries again", async () => {
    let googleDown = true;
    fakeClassroom({ work: () => (googleDown ? apiError(502, 'Google Classroom did not answer. Please try again.', 'upstream') : undefined) });
    const user = userEvent.setup();
    renderClassroom(PAGE);

    const dialog = await openPicker(user);
    await user.selectOptions(await within(dialog).findByRole('combobox', { name: 'Class' }), 'History (9B)');
    await user.selectOptions(await within(dialog).findByRole('combobox', { name: 'Assignment' }), 'Causes of WW1 essay');
    // The query client retries a 502 once before the message shows.
    expect(await within(dialog).findByText('Google Classroom did not answer. Please try again.')).toBeInTheDocument();
    googleDown = false;
    await user.click(within(dialog).getByRole('button', { name: 'Try again' }));
    expect(await within(dialog).findByRole('group', { name: 'Turned-in work (3)' })).toBeInTheDocument();
  });

  it('keeps the dialog open with the message when the import is refused', async () => {
    fakeClassroom({ importError: () => apiError(400, 'You can import at most 200 submissions at once.', 'invalid') });
    const user = userEvent.setup();
    renderClassroom(PAGE);

    const dialog = await openPicker(user);
    await user.selectOptions(await within(dialog).findByRole('combobox', { name: 'Class' }), 'History (9B)');
    await user.selectOptions(await within(dialog).findByRole('combobox', { name: 'Assignment' }), 'Causes of WW1 essay');
    await user.click(await within(dialog).findByRole('checkbox', { name: 'Select all' }));
    await user.click(within(dialog).getByRole('button', { name: 'Import 3 submissions' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent('You can import at most 200 submissions at once.');
  });

  it('says a class has no assignments', async () => {
    fakeClassroom();
    const user = userEvent.setup();
    renderClassroom(PAGE);

    const dialog = await openPicker(user);
    await user.selectOptions(await within(dialog).findByRole('combobox', { name: 'Class' }), 'Geography');
    expect(await within(dialog).findByText('This class has no assignments in Google Classroom.')).toBeInTheDocument();
  });

  it('toasts a new connection on the way back from Google and drops the parameter', async () => {
    fakeClassroom();
    const user = userEvent.setup();
    renderClassroom(`${PAGE}?tab=submissions&googleClassroom=connected`);

    expect(await screen.findByRole('alert')).toHaveTextContent('Google Classroom connected');
    expect(await screen.findByText('Query string: ?tab=submissions')).toBeInTheDocument();
    const dialog = await openPicker(user);
    expect(await within(dialog).findByRole('combobox', { name: 'Class' })).toBeInTheDocument();
  });

  it('explains a refused connection on the way back from Google', async () => {
    fakeClassroom({ status: { connected: false, reason: "Connect Google Classroom to import your students' work." } });
    renderClassroom(`${PAGE}?googleClassroom=denied`);

    expect(await screen.findByRole('alert')).toHaveTextContent('Google Classroom was not connected: the permission request was declined.');
    expect(await screen.findByText('Query string: none')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
