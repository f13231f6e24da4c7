import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, ASSIGNMENT_ID, BLOB_BASE, fakeBackend, submission } from '../testing/fake-backend';
import { renderSubmissions } from '../testing/render';
import { ACCEPTED_TYPES_TEXT } from '../../../lib/submission-files';
import { RECORD_AT_MOST, RECORD_EVERY_MS } from '../hooks/use-file-upload';

const PAGE = `/assignment/${ASSIGNMENT_ID}`;
const FOLDER = `assignments/${ASSIGNMENT_ID}/submissions/`;

function file(name: string, type: string, content = `contents of ${name}`) {
  return new File([content], name, { type });
}

function gate() {
  let release!: () => void;
  const opened = new Promise<void>((resolve) => (release = resolve));
  return { opened, release };
}

afterEach(() => vi.restoreAllMocks());

describe('uploading submissions', { timeout: 30_000 }, () => {
  it('uploads several files, shows their progress, and records the ones that uploaded in one call', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const slow = gate();
    const backend = fakeBackend({
      assignment: { type: 'grade', isHandWritten: true },
      signUpload: (name) => (name === 'big-scan.pdf' ? apiError(400, 'This file is larger than the 50 MB limit.') : undefined),
      putFile: async (name) => {
        if (name === 'slides.pptx') await slow.opened;
        return undefined;
      },
    });
    const user = userEvent.setup();
    renderSubmissions(`${PAGE}?uploaded=1`);
    expect(await screen.findByText('No submissions yet')).toBeInTheDocument();
    expect(screen.getByText('Query string: ?uploaded=1')).toBeInTheDocument();

    const essay = file('Essay 1 (final).pdf', 'application/pdf');
    const slides = file('slides.pptx', '');
    await user.upload(screen.getByLabelText('Choose files to upload'), [essay, slides, file('big-scan.pdf', 'application/pdf')]);

    const progress = await screen.findByRole('region', { name: 'Upload progress' });
    // The big scan failed and the essay is up; the slides are still on their way.
    await waitFor(() => expect(within(progress).getByText('2 of 3 files')).toBeInTheDocument());
    expect(within(progress).getByText('Uploading')).toBeInTheDocument();
    expect(within(progress).getByRole('progressbar', { name: 'Upload progress' })).toHaveAttribute('aria-valuenow', '67');
    const files = within(progress).getByRole('list', { name: 'Files' });
    expect(within(files).getByRole('listitem', { name: 'big-scan.pdf' })).toHaveTextContent('Failed: This file is larger than the 50 MB limit.');
    expect(within(files).getByRole('listitem', { name: 'Essay 1 (final).pdf' })).toHaveTextContent('Uploaded');
    expect(within(files).getByRole('listitem', { name: 'slides.pptx' })).toHaveTextContent('Uploading…');
    expect(screen.getByRole('button', { name: 'Upload files' })).toBeDisabled();
    expect(backend.bodies('db/assignment/update-submissions')).toEqual([]);

    slow.release();

    expect(await within(progress).findByText('2 of 3 files uploaded')).toBeInTheDocument();
    // Done: the heading says how it went, with no "3 of 3 files" beside it to contradict it.
    expect(within(progress).queryByText('3 of 3 files')).not.toBeInTheDocument();
    expect(within(files).getByRole('listitem', { name: 'big-scan.pdf' })).toHaveTextContent('Failed: This file is larger than the 50 MB limit.');
    expect(await screen.findByRole('alert')).toHaveTextContent('Uploaded 2 files; 1 failed.');

    // Names are sanitised for the key; the PUT carries the file's type.
    expect(backend.bodies('s3-upload')).toEqual(
      expect.arrayContaining([
        { fileName: `${FOLDER}Essay1final.pdf`, fileType: 'application/pdf', fileSize: essay.size },
        {
          fileName: `${FOLDER}slides.pptx`,
          fileType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
          fileSize: slides.size,
        },
      ]),
    );
    const essayPut = backend.calls.find((c) => c.path.startsWith('PUT ') && c.path.endsWith('Essay1final.pdf'));
    expect(essayPut?.body).toEqual({ contentType: 'application/pdf', size: essay.size });

    const [recorded, ...more] = backend.bodies('db/assignment/update-submissions');
    expect(more).toEqual([]);
    expect(recorded).toEqual({
      assignmentId: ASSIGNMENT_ID,
      submissions: [
        { name: 'Essay 1 (final).pdf', location: expect.stringMatching(new RegExp(`^${BLOB_BASE}${FOLDER}\\d+-Essay1final\\.pdf$`)) },
        { name: 'slides.pptx', location: expect.stringMatching(/-slides\.pptx$/) },
        // The file that did not upload is recorded too, as a failed row with its reason.
        { name: 'big-scan.pdf', error: 'This file is larger than the 50 MB limit.' },
      ],
      submissionRole: 'teacher',
      type: 'grade',
      requiresTextractArray: [false, true, false],
      requiresPDFReadArray: [true, false, true],
      requiresImageReadArray: [false, false, false],
      isHandWritten: true,
    });

    // The page "reloads": the query string is gone and the new submissions are listed.
    expect(await screen.findByText('Query string: none')).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Submissions' });
    expect(within(table).getByRole('rowheader', { name: 'Essay 1 (final).pdf' })).toBeInTheDocument();
    expect(within(table).getAllByText('Queued')).toHaveLength(2);
    // Dismissing the batch keeps the failed file as a row that says why.
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    const failedRow = within(table).getByRole('rowheader', { name: 'big-scan.pdf' }).closest('tr')!;
    expect(failedRow).toHaveTextContent('Failed');
    expect(failedRow).toHaveTextContent('This file is larger than the 50 MB limit.');
  });

  it('skips files whose content is already a submission, and adds them when asked', async () => {
    const content = 'My essay about plants.';
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(content));
    const hash = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
    const backend = fakeBackend({ newStatus: 'ready', submissions: [submission('s1', 'essay.txt', { contentHash: hash })] });
    const user = userEvent.setup();
    renderSubmissions(PAGE);

    await user.upload(await screen.findByLabelText('Choose files to upload'), [
      file('essay.txt', 'text/plain', content),
      file('new.txt', 'text/plain', 'Something new.'),
    ]);

    const note = await screen.findByText(/Already uploaded: essay\.txt/);
    expect(note).toHaveTextContent('Already uploaded: essay.txt. It was skipped.');
    expect(await screen.findByText('Upload complete')).toBeInTheDocument();
    expect(backend.bodies('s3-upload').map((b) => b.fileName)).toEqual([`${FOLDER}new.txt`]);

    await user.click(screen.getByRole('button', { name: 'Add it anyway' }));
    await waitFor(() => expect(backend.bodies('db/assignment/update-submissions')).toHaveLength(2));
    expect(backend.bodies('db/assignment/update-submissions')[1]).toMatchObject({ submissions: [{ name: 'essay.txt' }] });
    expect(screen.queryByText(/Already uploaded/)).not.toBeInTheDocument();
  });

  it('skips a file identical to an earlier file of the same batch, names the file it copies, and adds it when asked', async () => {
    // The teacher's walk: a class's scans, S13 a byte-for-byte copy of S1, in a class with none yet.
    // Ben's two scans share a name and a size but not their content: both are his.
    const backend = fakeBackend({ newStatus: 'ready' });
    const user = userEvent.setup();
    renderSubmissions(PAGE);

    await user.upload(await screen.findByLabelText('Choose files to upload'), [
      file('S1 Ava.tif', 'image/tiff', 'scan of Ava page 1'),
      file('S2 Ben.tif', 'image/tiff', 'scan of Ben page 1'),
      file('S2 Ben.tif', 'image/tiff', 'scan of Ben page 2'),
      file('S13 Ava-copy.tif', 'image/tiff', 'scan of Ava page 1'),
    ]);

    const note = await screen.findByText(/Duplicate in this upload/);
    expect(note).toHaveTextContent('Duplicate in this upload: S13 Ava-copy.tif (same as S1 Ava.tif). It was skipped.');
    expect(screen.queryByText(/Already uploaded/)).not.toBeInTheDocument();
    expect(await screen.findByText('Uploaded 3 files. Reading them now…')).toBeInTheDocument();
    const [recorded] = backend.bodies('db/assignment/update-submissions');
    expect(recorded).toMatchObject({ submissions: [{ name: 'S1 Ava.tif' }, { name: 'S2 Ben.tif' }, { name: 'S2 Ben.tif' }] });
    expect(backend.bodies('s3-upload')).toHaveLength(3);

    await user.click(screen.getByRole('button', { name: 'Add it anyway' }));
    await waitFor(() => expect(backend.bodies('db/assignment/update-submissions')).toHaveLength(2));
    expect(backend.bodies('db/assignment/update-submissions')[1]).toMatchObject({ submissions: [{ name: 'S13 Ava-copy.tif' }] });
    expect(screen.queryByText(/Duplicate in this upload/)).not.toBeInTheDocument();
  });

  it('says which files were already uploaded and which were copies within the batch, in one note', async () => {
    const content = 'My essay about plants.';
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(content));
    const hash = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
    const backend = fakeBackend({ newStatus: 'ready', submissions: [submission('s1', 'essay.txt', { contentHash: hash })] });
    const user = userEvent.setup();
    renderSubmissions(PAGE);

    await user.upload(await screen.findByLabelText('Choose files to upload'), [
      file('essay.txt', 'text/plain', content),
      file('ana.txt', 'text/plain', 'Ana on plants.'),
      file('ben.txt', 'text/plain', 'Ben on rivers.'),
      file('essay (1).txt', 'text/plain', content),
      file('ana (1).txt', 'text/plain', 'Ana on plants.'),
      file('ben (1).txt', 'text/plain', 'Ben on rivers.'),
    ]);

    // A copy of a file already uploaded is already uploaded too.
    expect(await screen.findByText(/Already uploaded/)).toHaveTextContent('Already uploaded: essay.txt, essay (1).txt. They were skipped.');
    expect(screen.getByText(/Duplicates in this upload/)).toHaveTextContent(
      'Duplicates in this upload: ana (1).txt (same as ana.txt), ben (1).txt (same as ben.txt). They were skipped.',
    );
    expect(await screen.findByText('Upload complete')).toBeInTheDocument();
    expect(backend.bodies('db/assignment/update-submissions')[0]).toMatchObject({ submissions: [{ name: 'ana.txt' }, { name: 'ben.txt' }] });

    await user.click(screen.getByRole('button', { name: 'Add them anyway' }));
    await waitFor(() => expect(backend.bodies('db/assignment/update-submissions')).toHaveLength(2));
    expect(backend.bodies('db/assignment/update-submissions')[1]).toMatchObject({
      submissions: [{ name: 'essay.txt' }, { name: 'essay (1).txt' }, { name: 'ana (1).txt' }, { name: 'ben (1).txt' }],
    });
  });

  it('refuses files of other types up front and uploads the rest', async () => {
    const backend = fakeBackend({ newStatus: 'ready' });
    renderSubmissions(PAGE);
    const zone = await screen.findByRole('group', { name: 'Drop files to upload' });

    fireEvent.drop(zone, {
      dataTransfer: { files: [file('budget.xlsx', 'application/vnd.ms-excel'), file('notes.txt', 'text/plain'), file('photo.PNG', 'image/png')], types: ['Files'] },
    });

    const refusal = await screen.findByText(/budget\.xlsx can't be uploaded/);
    expect(refusal).toHaveTextContent(
      `budget.xlsx can't be uploaded: only ${ACCEPTED_TYPES_TEXT} files are accepted.`,
    );
    expect(await screen.findByText('Upload complete')).toBeInTheDocument();
    expect(backend.bodies('s3-upload').map((b) => b.fileName)).toEqual(expect.arrayContaining([`${FOLDER}notes.txt`, `${FOLDER}photo.PNG`]));
    expect(backend.bodies('s3-upload')).toHaveLength(2);
    const [recorded] = backend.bodies('db/assignment/update-submissions');
    expect(recorded).toMatchObject({
      submissions: [{ name: 'notes.txt' }, { name: 'photo.PNG' }],
      requiresTextractArray: [true, false],
      requiresPDFReadArray: [false, false],
      requiresImageReadArray: [false, true],
    });
  });

  it('sends nothing when every file is of another type', async () => {
    const backend = fakeBackend();
    renderSubmissions(PAGE);
    const zone = await screen.findByRole('group', { name: 'Drop files to upload' });

    fireEvent.drop(zone, { dataTransfer: { files: [file('a.zip', 'application/zip'), file('b.exe', '')], types: ['Files'] } });

    expect(await screen.findByText(/2 files can't be uploaded \(a\.zip, b\.exe\)/)).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Upload progress' })).not.toBeInTheDocument();
    expect(backend.paths().filter((p) => p !== 'db/assignment/get')).toEqual([]);
  });

  it('says why a PUT was refused and keeps the file as a failed row', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const backend = fakeBackend({ putFile: () => new HttpResponse('expired', { status: 403 }) });
    const user = userEvent.setup();
    renderSubmissions(PAGE);

    await user.upload(await screen.findByLabelText('Choose files to upload'), file('essay.docx', ''));

    const row = await screen.findByRole('listitem', { name: 'essay.docx' });
    await waitFor(() => expect(row).toHaveTextContent('Failed: The upload link was refused or has expired. Please try again.'));
    expect(await screen.findByRole('alert')).toHaveTextContent('The file could not be uploaded.');
    expect(backend.bodies('db/assignment/update-submissions')).toMatchObject([
      { submissions: [{ name: 'essay.docx', error: 'The upload link was refused or has expired. Please try again.' }] },
    ]);
    await user.click(await screen.findByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('region', { name: 'Upload progress' })).not.toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Submissions' });
    expect(within(table).getByRole('rowheader', { name: 'essay.docx' }).closest('tr')).toHaveTextContent(
      'The upload link was refused or has expired. Please try again.',
    );
  });

  it('keeps the uploaded files when recording them fails, and tries again', async () => {
    const backend = fakeBackend({ failing: { 'db/assignment/update-submissions': { status: 400, message: 'This assignment is full.' } } });
    const user = userEvent.setup();
    renderSubmissions(PAGE);

    await user.upload(await screen.findByLabelText('Choose files to upload'), file('essay.pdf', 'application/pdf'));

    const progress = await screen.findByRole('region', { name: 'Upload progress' });
    expect(await within(progress).findByText('This assignment is full.')).toBeInTheDocument();
    expect(within(progress).getByText('Uploaded, but not added')).toBeInTheDocument();

    await user.click(within(progress).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(backend.bodies('db/assignment/update-submissions')).toHaveLength(2));
    const [first, second] = backend.bodies('db/assignment/update-submissions');
    expect(second).toEqual(first);
    expect(backend.bodies('s3-upload')).toHaveLength(1);
  });

  it('records the files that arrived while a long batch is still uploading, and the rest at the end', async () => {
    const gates = { 'b.pdf': gate(), 'c.pdf': gate() };
    const backend = fakeBackend({
      putFile: async (name) => {
        if (name in gates) await gates[name as keyof typeof gates].opened;
        return undefined;
      },
    });
    const user = userEvent.setup();
    renderSubmissions(PAGE);
    await user.upload(await screen.findByLabelText('Choose files to upload'), ['a.pdf', 'b.pdf', 'c.pdf'].map((n) => file(n, 'application/pdf')));
    await screen.findByText('1 of 3 files');
    // a.pdf arrived at once: too soon to record on its own.
    expect(backend.bodies('db/assignment/update-submissions')).toEqual([]);

    // Later, b.pdf arrives while c.pdf is still on its way: a and b are recorded now, so a reload
    // would not lose them.
    const realNow = Date.now.bind(Date);
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() + RECORD_EVERY_MS + 1000);
    gates['b.pdf'].release();
    await waitFor(() => expect(backend.bodies('db/assignment/update-submissions')).toHaveLength(1));
    expect(backend.bodies('db/assignment/update-submissions')[0]).toMatchObject({ submissions: [{ name: 'a.pdf' }, { name: 'b.pdf' }] });
    const table = await screen.findByRole('table', { name: 'Submissions' });
    expect(await within(table).findByRole('rowheader', { name: 'b.pdf' })).toBeInTheDocument();
    expect(screen.getByText('Uploading')).toBeInTheDocument();

    gates['c.pdf'].release();
    expect(await screen.findByRole('alert')).toHaveTextContent('Uploaded 3 files. Reading them now…');
    const calls = backend.bodies('db/assignment/update-submissions');
    expect(calls).toHaveLength(2);
    expect(calls[1]).toMatchObject({ submissions: [{ name: 'c.pdf' }] });
  });

  it('records a batch of more than 200 files in calls of at most 200', { timeout: 90_000 }, async () => {
    const backend = fakeBackend();
    renderSubmissions(PAGE);
    const names = Array.from({ length: RECORD_AT_MOST + 3 }, (_, i) => `pupil-${String(i + 1).padStart(3, '0')}.txt`);
    // No time passes for the batch: it is recorded at its end only.
    const t0 = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(t0);
    fireEvent.change(await screen.findByLabelText('Choose files to upload'), { target: { files: names.map((n) => file(n, 'text/plain')) } });
    expect(await screen.findByRole('alert', {}, { timeout: 60_000 })).toHaveTextContent(`Uploaded ${names.length} files. Reading them now…`);
    const calls = backend.bodies('db/assignment/update-submissions') as { submissions: { name: string }[] }[];
    expect(calls.map((c) => c.submissions.length)).toEqual([RECORD_AT_MOST, 3]);
    expect(calls.flatMap((c) => c.submissions.map((s) => s.name))).toEqual(names);
  });

  it('uploads at most four files at once', async () => {
    const slow = gate();
    const backend = fakeBackend({ putFile: async () => (await slow.opened, undefined) });
    const user = userEvent.setup();
    renderSubmissions(PAGE);

    const names = ['a.pdf', 'b.pdf', 'c.pdf', 'd.pdf', 'e.pdf', 'f.pdf'];
    await user.upload(await screen.findByLabelText('Choose files to upload'), names.map((n) => file(n, 'application/pdf')));

    const puts = () => backend.paths().filter((p) => p.startsWith('PUT '));
    await waitFor(() => expect(puts()).toHaveLength(4));
    expect(screen.getAllByText('Waiting…')).toHaveLength(2);
    expect(screen.getByText('0 of 6 files')).toBeInTheDocument();

    slow.release();
    expect(await screen.findByText('Upload complete')).toBeInTheDocument();
    expect(puts()).toHaveLength(6);
    const [recorded] = backend.bodies('db/assignment/update-submissions');
    expect((recorded.submissions as { name: string }[]).map((s) => s.name)).toEqual(names);
  });

  it('asks before the page is left while files upload', async () => {
    const slow = gate();
    fakeBackend({ putFile: async () => (await slow.opened, undefined) });
    const user = userEvent.setup();
    renderSubmissions(PAGE);

    const unguarded = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unguarded);
    expect(unguarded.defaultPrevented).toBe(false);

    await user.upload(await screen.findByLabelText('Choose files to upload'), file('essay.pdf', 'application/pdf'));
    await screen.findByText('Uploading');
    const guarded = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(guarded);
    expect(guarded.defaultPrevented).toBe(true);

    slow.release();
    expect(await screen.findByText('Upload complete')).toBeInTheDocument();
    const after = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(after);
    expect(after.defaultPrevented).toBe(false);
  });

  it('offers the six types to the file picker, several at once, from a real button', async () => {
    fakeBackend();
    renderSubmissions(PAGE);

    const input = await screen.findByLabelText('Choose files to upload');
    expect(input).toHaveAttribute('multiple');
    expect(input.getAttribute('accept')?.split(',')).toEqual(
      expect.arrayContaining(['.pdf', '.docx', '.pptx', '.txt', '.jpg', '.jpeg', '.png', 'application/pdf', 'image/png']),
    );
    const click = vi.spyOn(input, 'click');
    const button = screen.getByRole('button', { name: 'Upload files' });
    button.focus();
    await userEvent.keyboard('{Enter}');
    expect(click).toHaveBeenCalled();
  });
});
