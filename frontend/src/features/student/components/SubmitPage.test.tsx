import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { server } from '../../../testing/server';
import { currentPath, renderApp, signOutEverywhere } from '../../../testing/test-utils';
import type { LinkAssignment } from '../api/types';
import { apiError, LINK_ASSIGNMENT, linkHandler, submission } from '../testing/fixtures';
import { LINK_UNAVAILABLE_MESSAGE } from './SubmitPage';

const SIGNED_URL = '/files/upload/assignments/a1/submissions/student/k1-Myessayfinal.pdf?expires=1&sig=abc';

interface Recorded {
  uploads: unknown[];
  puts: { contentType: string | null; size: number }[];
  submits: Record<string, unknown>[];
}

/**
 * A signed-out student at `path`, with a backend that issues an upload URL, takes the PUT and
 * records the submission as `s1` (view token `vt-1`).
 */
function setup(path = '/submit/tok-1', assignment: LinkAssignment = LINK_ASSIGNMENT) {
  signOutEverywhere();
  const recorded: Recorded = { uploads: [], puts: [], submits: [] };
  server.use(
    linkHandler(assignment),
    http.post('/api/v1/s3-pub-upload', async ({ request }) => {
      recorded.uploads.push(await request.json());
      return HttpResponse.json({
        data: { signedUrl: SIGNED_URL, location: 'assignments/a1/submissions/student/k1-Myessayfinal.pdf' },
      });
    }),
    http.put('/files/upload/*', async ({ request }) => {
      recorded.puts.push({ contentType: request.headers.get('Content-Type'), size: (await request.arrayBuffer()).byteLength });
      return new HttpResponse(null, { status: 200 });
    }),
    http.post('/api/v1/db/assignment/update-submissions-from-student', async ({ request }) => {
      recorded.submits.push((await request.json()) as Record<string, unknown>);
      return HttpResponse.json({
        data: {
          assignment,
          functionResults: [],
          submissions: [submission({ status: 'queued', text: undefined })],
          viewToken: 'vt-1',
        },
      });
    }),
    http.post('/api/v1/db/submission/get-view-only', () => HttpResponse.json({ data: { submission: submission() } })),
    http.post('/api/v1/db/assignment/get-view-only', () =>
      HttpResponse.json({ data: { assignment: { _id: 'a1', name: assignment.name } } }),
    ),
    http.post('/api/v1/db/functionResult/get-view-only', () => HttpResponse.json({ data: { functionResult: { _id: 'r1', status: '' } } })),
  );
  const user = userEvent.setup({ applyAccept: false });
  const rendered = renderApp(path);
  return { user, recorded, ...rendered };
}

const essay = () => new File(['x'.repeat(2048)], 'My essay (final).pdf', { type: 'application/pdf' });

async function fillIn(user: ReturnType<typeof userEvent.setup>, file: File = essay()) {
  await user.type(await screen.findByRole('textbox', { name: 'Your name' }), 'Sam Student');
  await user.type(screen.getByRole('textbox', { name: 'Your email' }), 'sam@school.org');
  await user.upload(screen.getByLabelText('File to submit'), file);
}

afterEach(() => sessionStorage.clear());

describe('student submission page', () => {
  it('shows the assignment and a form without asking the student to sign in', async () => {
    setup();

    expect(await screen.findByRole('heading', { name: 'Persuasive essay' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Your name' })).toBeRequired();
    expect(screen.getByRole('textbox', { name: 'Your email' })).toBeRequired();
    expect(screen.getByRole('button', { name: 'Choose a file' })).toBeInTheDocument();
    // The student layout: the wordmark, no teacher navigation or account menu.
    expect(screen.getByText('Markwell')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Sections' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /account menu/i })).not.toBeInTheDocument();
    expect(document.title).toBe('Submit: Persuasive essay · Markwell');
  });

  it('explains a link that is turned off or unknown', async () => {
    setup('/submit/old-token');

    expect(
      await screen.findByRole('heading', { name: 'This submission link is turned off or does not exist.' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Ask your teacher for the current link.')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Your name' })).not.toBeInTheDocument();
  });

  it('checks the name, the email and the file before sending anything', async () => {
    const { user, recorded } = setup();
    await screen.findByRole('heading', { name: 'Persuasive essay' });

    await user.click(screen.getByRole('button', { name: 'Submit' }));

    expect(screen.getByText('Enter your name.')).toBeInTheDocument();
    expect(screen.getByText('Enter your email address.')).toBeInTheDocument();
    expect(screen.getByText('Choose the file to submit.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Your name' })).toHaveFocus();

    await user.type(screen.getByRole('textbox', { name: 'Your name' }), 'Sam');
    await user.type(screen.getByRole('textbox', { name: 'Your email' }), 'sam@school');
    await user.click(screen.getByRole('button', { name: 'Submit' }));

    expect(screen.queryByText('Enter your name.')).not.toBeInTheDocument();
    expect(screen.getByText('Enter a valid email address, like name@school.org.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Your email' })).toHaveFocus();

    await user.upload(screen.getByLabelText('File to submit'), new File(['x'], 'notes.zip', { type: 'application/zip' }));
    expect(screen.getByText(/This kind of file can't be submitted/)).toBeInTheDocument();
    expect(screen.queryByText('notes.zip')).not.toBeInTheDocument();

    expect(recorded.uploads).toEqual([]);
    expect(recorded.submits).toEqual([]);
  });

  it('shows the chosen file with its size', async () => {
    const { user } = setup();
    await fillIn(user);

    expect(screen.getByText('My essay (final).pdf')).toBeInTheDocument();
    expect(screen.getByText('2 KB')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Choose another file' })).toBeInTheDocument();
  });

  it('uploads the file, submits it and opens the result page when instant feedback is on', async () => {
    const { user, recorded, router } = setup('/submit/tok-1?lti=%7B%22courseId%22%3A%22c1%22%7D');
    await fillIn(user);

    await user.click(screen.getByRole('button', { name: 'Submit' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/student/view-result/a1/s1'));
    expect(recorded.uploads).toEqual([
      { fileName: 'Myessayfinal.pdf', fileType: 'application/pdf', fileSize: 2048, linkToken: 'tok-1' },
    ]);
    expect(recorded.puts).toEqual([{ contentType: 'application/pdf', size: 2048 }]);
    expect(recorded.submits).toEqual([
      {
        linkToken: 'tok-1',
        assignmentId: 'a1',
        submissions: [{ name: 'My essay (final).pdf', location: 'assignments/a1/submissions/student/k1-Myessayfinal.pdf' }],
        submissionRole: 'student',
        type: 'grade',
        requiresTextractArray: [false],
        requiresPDFReadArray: [true],
        requiresImageReadArray: [false],
        isHandWritten: false,
        studentName: 'Sam Student',
        studentEmail: 'sam@school.org',
        studentSubmissionLTIDetails: { courseId: 'c1' },
      },
    ]);
    expect(sessionStorage.getItem('markwell.viewToken.s1')).toBe('vt-1');
    expect(await screen.findByText('My essay.')).toBeInTheDocument();
  });

  it('goes to the thank-you page, without the query string, when instant feedback is off', async () => {
    const { user, recorded, router } = setup('/submit/tok-1?ref=email', {
      ...LINK_ASSIGNMENT,
      provideInstantFeedback: false,
      allowResubmission: true,
    });
    await fillIn(user, new File(['hello'], 'answers.docx', { type: '' }));

    await user.click(screen.getByRole('button', { name: 'Submit' }));

    expect(await screen.findByRole('heading', { name: 'Thank you — your work was submitted' })).toBeInTheDocument();
    expect(currentPath(router)).toBe('/submit/tok-1/success');
    expect(screen.getByText(/Your work for “Persuasive essay” is with your teacher/)).toBeInTheDocument();
    expect(recorded.submits[0]).toMatchObject({ requiresTextractArray: [true], requiresPDFReadArray: [false] });
    expect(recorded.submits[0]).not.toHaveProperty('studentSubmissionLTIDetails');
    expect(recorded.puts).toEqual([
      { contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', size: 5 },
    ]);

    await user.click(screen.getByRole('link', { name: 'Submit another piece of work' }));
    expect(await screen.findByRole('textbox', { name: 'Your name' })).toHaveValue('');
    expect(currentPath(router)).toBe('/submit/tok-1');
  });

  it('disables Submit while the work is being sent', async () => {
    const { user } = setup();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.post('/api/v1/db/assignment/update-submissions-from-student', async () => {
        await gate;
        return apiError(500, 'internal', 'Internal error');
      }),
    );
    await fillIn(user);

    await user.click(screen.getByRole('button', { name: 'Submit' }));

    expect(await screen.findByText('Submitting…')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /submit/i })).toBeDisabled();
    expect(screen.getByRole('textbox', { name: 'Your name' })).toBeDisabled();
    release();
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong! Please try again');
    expect(screen.getByRole('button', { name: 'Submit' })).toBeEnabled();
  });

  it('says something went wrong when the upload fails, and keeps what was typed', async () => {
    const { user, router, recorded } = setup();
    server.use(http.put('/files/upload/*', () => new HttpResponse(null, { status: 403 })));
    await fillIn(user);

    await user.click(screen.getByRole('button', { name: 'Submit' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong! Please try again');
    expect(recorded.submits).toEqual([]);
    expect(router.state.location.pathname).toBe('/submit/tok-1');
    expect(screen.getByRole('textbox', { name: 'Your name' })).toHaveValue('Sam Student');
    expect(screen.getByText('My essay (final).pdf')).toBeInTheDocument();
  });

  it("shows the server's message when the student is rate limited", async () => {
    const { user } = setup();
    server.use(
      http.post('/api/v1/s3-pub-upload', () =>
        apiError(429, 'rate_limited', 'Too many submissions from this link. Please try again in a few minutes.'),
      ),
    );
    await fillIn(user);

    await user.click(screen.getByRole('button', { name: 'Submit' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Too many submissions from this link. Please try again in a few minutes.',
    );
  });

  it('says so when the student has already submitted, and stays on the form', async () => {
    const { user, router } = setup();
    const already = 'You have already submitted this assignment. Ask your teacher if you need to submit again.';
    server.use(http.post('/api/v1/db/assignment/update-submissions-from-student', () => apiError(409, 'conflict', already)));
    await fillIn(user);

    await user.click(screen.getByRole('button', { name: 'Submit' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(already);
    expect(router.state.location.pathname).toBe('/submit/tok-1');
  });

  it('says why a file is refused', async () => {
    const { user } = setup();
    server.use(http.post('/api/v1/s3-pub-upload', () => apiError(400, 'invalid', 'This file is larger than the 50 MB limit.')));
    await fillIn(user);

    await user.click(screen.getByRole('button', { name: 'Submit' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('This file is larger than the 50 MB limit.');
  });

  it('works from the keyboard alone', async () => {
    const { user, router } = setup();
    await screen.findByRole('textbox', { name: 'Your name' });

    await user.tab();
    expect(screen.getByRole('textbox', { name: 'Your name' })).toHaveFocus();
    await user.keyboard('Sam Student');
    await user.tab();
    await user.keyboard('sam@school.org');
    await user.tab();
    expect(screen.getByRole('button', { name: 'Choose a file' })).toHaveFocus();
    await user.upload(screen.getByLabelText('File to submit'), essay());
    screen.getByRole('button', { name: 'Submit' }).focus();
    await user.keyboard('{Enter}');

    await waitFor(() => expect(router.state.location.pathname).toBe('/student/view-result/a1/s1'));
  });

  it('says the link was turned off when it goes off while the form is open, and offers no retry', async () => {
    const { user, router } = setup();
    await fillIn(user);
    // The teacher turns the link off (or makes a new one) while the pupil fills in the form.
    server.use(
      http.post('/api/v1/student/link', () => apiError(404, 'not_found', LINK_UNAVAILABLE_MESSAGE)),
      http.post('/api/v1/db/assignment/update-submissions-from-student', () => apiError(404, 'not_found', LINK_UNAVAILABLE_MESSAGE)),
    );

    await user.click(screen.getByRole('button', { name: 'Submit' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(LINK_UNAVAILABLE_MESSAGE);
    expect(await screen.findByRole('heading', { name: LINK_UNAVAILABLE_MESSAGE })).toBeInTheDocument();
    expect(screen.getByText(/Your work was not submitted.*Ask your teacher for the current link\./)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Your name' })).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/submit/tok-1');
  });

  it("keeps the form when a 404 leaves the link on (an expired course launch), with the server's words", async () => {
    const { user } = setup();
    const expired = 'Your launch from the course has expired. Please open the activity again from your course.';
    server.use(http.post('/api/v1/db/assignment/update-submissions-from-student', () => apiError(404, 'not_found', expired)));
    await fillIn(user);

    await user.click(screen.getByRole('button', { name: 'Submit' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(expired);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Submit' })).toBeEnabled());
    expect(screen.getByRole('textbox', { name: 'Your name' })).toHaveValue('Sam Student');
    expect(screen.queryByRole('heading', { name: LINK_UNAVAILABLE_MESSAGE })).not.toBeInTheDocument();
  });

  it('shortens a file name longer than 200 characters before uploading, and shows it on one line', async () => {
    const { user, recorded, router } = setup();
    const long = `My_photosynthesis_homework_final_version_really_final_${'x'.repeat(211)}_v2.txt`;
    expect(long).toHaveLength(272);
    await fillIn(user, new File(['Plants make sugar.'], long, { type: 'text/plain' }));

    // The whole name is the tooltip of the one line that shows it.
    expect(screen.getByText(long)).toHaveAttribute('title', long);

    await user.click(screen.getByRole('button', { name: 'Submit' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/student/view-result/a1/s1'));
    const name = (recorded.submits[0].submissions as { name: string }[])[0].name;
    expect(Array.from(name).length).toBeLessThanOrEqual(200);
    expect(name.startsWith('My_photosynthesis_homework_final_version_really_final_')).toBe(true);
    expect(name).toContain('…');
    expect(name.endsWith('_v2.txt')).toBe(true);
    expect((recorded.uploads[0] as { fileName: string }).fileName.endsWith('_v2.txt')).toBe(true);
  });

  it('refuses an empty file as soon as it is picked', async () => {
    const { user, recorded } = setup();
    await fillIn(user, new File([], 'notes.txt', { type: 'text/plain' }));

    expect(screen.getByText('This file is empty.')).toBeInTheDocument();
    expect(screen.queryByText('notes.txt')).not.toBeInTheDocument();
    expect(screen.queryByText('0 bytes')).not.toBeInTheDocument();

    await user.upload(screen.getByLabelText('File to submit'), essay());
    expect(screen.queryByText('This file is empty.')).not.toBeInTheDocument();
    expect(screen.getByText('My essay (final).pdf')).toBeInTheDocument();
    expect(recorded.uploads).toEqual([]);
  });

  it('offers no second submission on the thank-you page when the link takes one only', async () => {
    const { user, router } = setup('/submit/tok-1', { ...LINK_ASSIGNMENT, provideInstantFeedback: false, allowResubmission: false });
    await fillIn(user);

    await user.click(screen.getByRole('button', { name: 'Submit' }));

    expect(await screen.findByRole('heading', { name: 'Thank you — your work was submitted' })).toBeInTheDocument();
    expect(currentPath(router)).toBe('/submit/tok-1/success');
    expect(screen.queryByRole('link', { name: 'Submit another piece of work' })).not.toBeInTheDocument();
  });

  it('does not thank a pupil who opens the thank-you page without submitting from this tab', async () => {
    const { router } = setup('/submit/tok-1/success');

    expect(await screen.findByRole('textbox', { name: 'Your name' })).toBeInTheDocument();
    expect(currentPath(router)).toBe('/submit/tok-1');
    expect(screen.queryByText('Thank you — your work was submitted')).not.toBeInTheDocument();
  });

  it('opened directly for a link that is off, says the link is off rather than thanking', async () => {
    setup('/submit/old-token/success');

    expect(await screen.findByRole('heading', { name: LINK_UNAVAILABLE_MESSAGE })).toBeInTheDocument();
    expect(screen.queryByText('Thank you — your work was submitted')).not.toBeInTheDocument();
  });
});
