import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { browserLocation } from '../../../lib/navigation';
import { server } from '../../../testing/server';
import { renderOnAssignmentPage } from '../../../testing/assignment-page';
import type { ClassroomStatus } from '../api/types';
import { SendGradesButton } from './SendGradesButton';
import { NO_COMMENTS_NOTE, RECONNECT_FOR_GRADES } from './SendGradesDialog';

const ASSIGNMENT_ID = 'a2222222-2222-4222-8222-222222222222';
const PAGE = `/assignment/${ASSIGNMENT_ID}`;
const LEFT = 'Google Classroom could not find this student’s work: the student may have left the class, or the work was deleted.';

interface Sub {
  _id: string;
  name: string;
  studentName: string;
  source: string;
}

const CLASSROOM: Sub[] = [
  { _id: 'sub-ann', name: 'ann.pdf', studentName: 'Ann Lee', source: 'google' },
  { _id: 'sub-ben', name: 'ben.pdf', studentName: 'Ben Cho', source: 'google' },
];

/** A backend with the assignment's submissions, the status and a passback that finishes on the second poll. */
function fakeBackend({ submissions = CLASSROOM, status = {} as Partial<ClassroomStatus>, startError = undefined as Response | undefined } = {}) {
  const starts: unknown[] = [];
  let polls = 0;
  let started = false;
  const run = (done: boolean) => ({
    _id: 'run-1',
    status: done ? 'done' : 'running',
    grade: 'assigned',
    returnToStudents: true,
    total: 2,
    done: done ? 2 : 1,
    students: [
      { submissionId: 'sub-ann', studentName: 'Ann Lee', state: 'returned', grade: 37.5, at: '2026-11-27T10:00:00Z' },
      done
        ? { submissionId: 'sub-ben', studentName: 'Ben Cho', state: 'failed', error: LEFT, at: '2026-11-27T10:00:01Z' }
        : { submissionId: 'sub-ben', studentName: 'Ben Cho', state: 'pending' },
    ],
  });
  server.use(
    http.post('/api/v1/db/assignment/get', () =>
      HttpResponse.json({ data: { assignment: { _id: ASSIGNMENT_ID, type: 'grade' }, submissions, functionResults: [] } }),
    ),
    http.post('/api/v1/google/classroom/status', () =>
      HttpResponse.json({ data: { configured: true, connected: true, reason: '', canSendGrades: true, ...status } }),
    ),
    http.post('/api/v1/google/classroom/passback/get', () => {
      if (!started) return HttpResponse.json({ data: { passback: null } });
      polls++;
      return HttpResponse.json({ data: { passback: run(polls >= 2) } });
    }),
    http.post('/api/v1/google/classroom/passback', async ({ request }) => {
      starts.push(await request.json());
      if (startError) return startError;
      started = true;
      return HttpResponse.json({ data: { passback: { ...run(false), status: 'queued', done: 0, students: [] } } });
    }),
  );
  return { starts };
}

function renderButton(selectedIds: string[] = []) {
  return renderOnAssignmentPage<{ submissions: unknown }>(PAGE, (data) => (
    <SendGradesButton assignmentId={ASSIGNMENT_ID} submissions={data.submissions} selectedIds={selectedIds} />
  ));
}

async function openDialog(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'Send grades to Classroom' }));
  return screen.findByRole('dialog', { name: 'Send grades to Google Classroom' });
}

afterEach(() => vi.restoreAllMocks());

describe('Send grades to Google Classroom', { timeout: 30_000 }, () => {
  it('is not offered for an assignment without work from Classroom', async () => {
    fakeBackend({ submissions: [{ _id: 'u1', name: 'essay.pdf', studentName: 'Cy', source: 'upload' }] });
    renderButton();
    await screen.findByText('Query string: none');
    expect(screen.queryByRole('button', { name: 'Send grades to Classroom' })).not.toBeInTheDocument();
  });

  it('is offered for a class bigger than a page whose Classroom work is on another page', async () => {
    // The page shown holds uploads only; the server counts 10 of the class from Classroom.
    fakeBackend({ submissions: [{ _id: 'u1', name: 'essay.pdf', studentName: 'Cy', source: 'upload' }] });
    renderOnAssignmentPage<{ submissions: unknown }>(PAGE, (data) => (
      <SendGradesButton assignmentId={ASSIGNMENT_ID} submissions={data.submissions} selectedIds={[]} classroomSubmissions={10} />
    ));
    expect(await screen.findByRole('button', { name: 'Send grades to Classroom' })).toBeInTheDocument();
  });

  it('sends assigned grades of the selected rows, returns them, and shows each student’s outcome', async () => {
    const backend = fakeBackend();
    const user = userEvent.setup();
    renderButton(['sub-ann', 'sub-ben']);

    const dialog = await openDialog(user);
    expect(await within(dialog).findByText(NO_COMMENTS_NOTE)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('radio', { name: /Assigned grade/ }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Return to students' }));
    expect(within(dialog).getByRole('radio', { name: 'The 2 selected' })).toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'Send grades' }));

    await waitFor(() =>
      expect(backend.starts).toEqual([
        { assignmentId: ASSIGNMENT_ID, submissionIds: ['sub-ann', 'sub-ben'], grade: 'assigned', returnToStudents: true, comment: false },
      ]),
    );
    // Progress while it works, then every student in plain words.
    expect(await within(dialog).findByText(/Sending grades to Google Classroom: 1 of 2 done/, {}, { timeout: 5000 })).toBeInTheDocument();
    const summary = await within(dialog).findByRole('status', {}, { timeout: 5000 });
    expect(summary).toHaveTextContent('1 of 2 grades sent as assigned grades and returned. 1 not sent: see why below.');
    const students = within(dialog).getByRole('list', { name: 'Students' });
    expect(within(students).getByText('Ann Lee').nextSibling).toHaveTextContent('Sent and returned · 37.5');
    expect(within(students).getByText('Ben Cho').nextSibling).toHaveTextContent(`Not sent — ${LEFT}`);

    // Keyboard: Close is reachable and closes.
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('sends everyone imported from Classroom when nothing is selected, as draft grades by default', async () => {
    const backend = fakeBackend();
    const user = userEvent.setup();
    renderButton();
    const dialog = await openDialog(user);
    expect(within(dialog).queryByRole('radio', { name: /selected/ })).not.toBeInTheDocument();
    await user.click(await within(dialog).findByRole('button', { name: 'Send grades' }));
    await waitFor(() =>
      expect(backend.starts).toEqual([{ assignmentId: ASSIGNMENT_ID, submissionIds: [], grade: 'draft', returnToStudents: false, comment: false }]),
    );
  });

  it('asks to reconnect when the connection does not allow grades', async () => {
    const backend = fakeBackend({ status: { canSendGrades: false } });
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => {});
    const user = userEvent.setup();
    renderButton();
    const dialog = await openDialog(user);
    expect(await within(dialog).findByText(RECONNECT_FOR_GRADES)).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Send grades' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Connect Google Classroom' }));
    expect(assign).toHaveBeenCalledWith(`/api/v1/google/classroom/connect?returnTo=${encodeURIComponent(PAGE)}`);
    expect(backend.starts).toEqual([]);
  });

  it('says why on a server without Google, with nothing to send', async () => {
    fakeBackend({ status: { configured: false, connected: false, reason: 'Google sign-in is not configured on this server' } });
    const user = userEvent.setup();
    renderButton();
    const dialog = await openDialog(user);
    expect(await within(dialog).findByText('Google sign-in is not configured on this server')).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: /Send grades|Connect/ })).not.toBeInTheDocument();
  });

  it('shows the server’s sentence when sending cannot start', async () => {
    fakeBackend({
      startError: HttpResponse.json(
        { error: { code: 'conflict', message: 'Grades are already being sent to Google Classroom for this assignment. Wait until that finishes.' } },
        { status: 409 },
      ),
    });
    const user = userEvent.setup();
    renderButton();
    const dialog = await openDialog(user);
    await user.click(await within(dialog).findByRole('button', { name: 'Send grades' }));
    expect(await within(dialog).findByText(/already being sent to Google Classroom/)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Send grades' })).toBeEnabled();
  });
});
