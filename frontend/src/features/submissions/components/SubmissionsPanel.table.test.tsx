import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ASSIGNMENT_ID, fakeBackend, submission } from '../testing/fake-backend';
import { renderSubmissions } from '../testing/render';

const PAGE = `/assignment/${ASSIGNMENT_ID}`;

function sample() {
  return [
    submission('s1', 'essay-b.pdf', { studentName: 'Zoe Park', pageCount: 3, preview: 'Alliances bound the powers' }),
    submission('s2', 'essay-a.pdf', { studentEmail: 'ann@school.org', pageCount: 1, preview: 'Militarism grew' }),
    submission('s3', 'scan.png', { status: 'failed', error: 'No text found on any page', pageCount: 2, preview: '' }),
    submission('s4', 'notes.txt', { status: 'extracting', pageCount: 0, preview: '' }),
  ];
}

/** The names in the table, top to bottom (without the student line phones show under them). */
function names() {
  const table = screen.getByRole('table', { name: 'Submissions' });
  return within(table).getAllByRole('rowheader').map((cell) => cell.firstChild?.textContent);
}

describe('submissions table', { timeout: 30_000 }, () => {
  it('lists the submissions with student, status, preview and pages', async () => {
    fakeBackend({ submissions: sample() });
    renderSubmissions(PAGE);

    const table = await screen.findByRole('table', { name: 'Submissions' });
    expect(within(table).getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['', 'Name', 'Student', 'Status', 'Result', 'Preview', 'Pages', 'Actions']);
    // Cells after the name: checkbox, student, status, result, preview, pages, actions.
    const cells = (name: RegExp) => within(within(table).getByRole('row', { name })).getAllByRole('cell');
    const [, student, status, result, preview, pages] = cells(/essay-b\.pdf/);
    expect(student).toHaveTextContent('Zoe Park');
    expect(status).toHaveTextContent('Ready');
    expect(result).toHaveTextContent('Not graded');
    expect(preview).toHaveTextContent('Alliances bound the powers');
    expect(pages).toHaveTextContent('3');
    expect(cells(/essay-a\.pdf/)[1]).toHaveTextContent('ann@school.org');
    // A failure says why, in plain sight.
    const failed = within(table).getByRole('row', { name: /scan\.png/ });
    expect(within(failed).getByText('Failed')).toBeInTheDocument();
    expect(within(failed).getByText('No text found on any page')).toBeInTheDocument();
    expect(within(within(table).getByRole('row', { name: /notes\.txt/ })).getByText('Reading…')).toBeInTheDocument();
    expect(screen.getByText('4 submissions')).toBeInTheDocument();
  });

  it('marks a submission whose text may be misread and links to its original at that page', async () => {
    const summary = 'Pages 2 and 5 may be misread: check them against the original';
    fakeBackend({
      submissions: [
        submission('s1', 'scan.pdf', { pageCount: 6, error: summary, doubtfulPages: [2, 5] }),
        submission('s2', 'essay.pdf', { pageCount: 3, error: 'No text found on 1 of 3 pages' }),
      ],
    });
    const user = userEvent.setup();
    renderSubmissions(PAGE);
    const table = await screen.findByRole('table', { name: 'Submissions' });

    const row = within(table).getByRole('row', { name: /scan\.pdf/ });
    expect(within(row).getByText(summary)).toBeInTheDocument();
    const check = within(row).getByRole('link', { name: 'Check pages 2 and 5 of scan.pdf against the original' });
    expect(check).toHaveTextContent('Check pages 2 and 5');
    expect(check).toHaveAttribute('href', `/assignment/${ASSIGNMENT_ID}/submission/s1?page=2`);
    // Pointed at, it says why.
    await user.hover(check);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(summary);
    // A page without text is no misreading: no link.
    const other = within(table).getByRole('row', { name: /essay\.pdf/ });
    expect(within(other).getByText('No text found on 1 of 3 pages')).toBeInTheDocument();
    expect(within(other).queryByRole('link', { name: /against the original/ })).not.toBeInTheDocument();
  });

  it('shows a garbled text file what is wrong without a link to an original it does not have', async () => {
    const warning = 'Some characters in this file look garbled (“ÎºÏÎºÎ»Î¿Ï”), so words may be wrong or missing';
    fakeBackend({ submissions: [submission('s1', 'essay.txt', { pageCount: 1, error: warning, doubtfulPages: [] })] });
    renderSubmissions(PAGE);
    const table = await screen.findByRole('table', { name: 'Submissions' });

    const row = within(table).getByRole('row', { name: /essay\.txt/ });
    expect(within(row).getByText(warning)).toBeInTheDocument();
    expect(within(row).queryByRole('link', { name: /Check page/ })).not.toBeInTheDocument();
    expect(within(row).queryByText(/against the original/)).not.toBeInTheDocument();
  });

  it("labels a student's attempts and links each to the one before", async () => {
    const student = { studentName: 'Sam Student', studentEmail: 'sam@pupils.test', source: 'student', submissionRole: 'student' } as const;
    fakeBackend({
      submissions: [
        submission('s1', 'draft.txt', student),
        submission('s2', 'essay-again.txt', { ...student, attempt: 2, previousSubmissionId: 's1' }),
        submission('s3', 'lab.txt', { ...student, studentName: 'Kim', studentEmail: 'kim@pupils.test', attempt: 3, previousSubmissionId: 'deleted' }),
        submission('s4', 'notes.txt', { studentName: 'Ann' }),
      ],
    });
    renderSubmissions(PAGE);
    const table = await screen.findByRole('table', { name: 'Submissions' });
    const row = (name: RegExp) => within(table).getByRole('row', { name });

    expect(row(/essay-again\.txt/)).toHaveTextContent('Attempt 2 · See attempt 1');
    expect(within(row(/essay-again\.txt/)).getByRole('link', { name: 'See attempt 1' })).toHaveAttribute(
      'href',
      `/assignment/${ASSIGNMENT_ID}/submission/s1`,
    );
    // The first attempt stays, labelled as such.
    expect(row(/draft\.txt/)).toHaveTextContent('Attempt 1');
    expect(within(row(/draft\.txt/)).queryByRole('link', { name: /See attempt/ })).not.toBeInTheDocument();
    // An earlier attempt that was deleted has no link.
    expect(row(/lab\.txt/)).toHaveTextContent('Attempt 3');
    expect(within(row(/lab\.txt/)).queryByRole('link', { name: /See attempt/ })).not.toBeInTheDocument();
    // A submission made once says nothing about attempts.
    expect(row(/notes\.txt/)).not.toHaveTextContent('Attempt');
    expect(screen.getByText('4 submissions')).toBeInTheDocument();
  });

  it('sorts by each column, both ways', async () => {
    fakeBackend({ submissions: sample() });
    const user = userEvent.setup();
    renderSubmissions(PAGE);
    await screen.findByRole('table', { name: 'Submissions' });

    expect(names()).toEqual(['essay-a.pdf', 'essay-b.pdf', 'notes.txt', 'scan.png']);
    expect(screen.getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'ascending');

    await user.click(screen.getByRole('button', { name: 'Name' }));
    expect(names()).toEqual(['scan.png', 'notes.txt', 'essay-b.pdf', 'essay-a.pdf']);
    expect(screen.getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'descending');

    await user.click(screen.getByRole('button', { name: 'Pages' }));
    expect(names()).toEqual(['notes.txt', 'essay-a.pdf', 'scan.png', 'essay-b.pdf']);

    await user.click(screen.getByRole('button', { name: 'Status' }));
    expect(names()).toEqual(['scan.png', 'notes.txt', 'essay-b.pdf', 'essay-a.pdf']);

    await user.click(screen.getByRole('button', { name: 'Student' }));
    // No student sorts first, then Ann (by email), then Zoe.
    expect(names()).toEqual(['scan.png', 'notes.txt', 'essay-a.pdf', 'essay-b.pdf']);
  });

  it('selects all and deletes the selected after confirming', async () => {
    const backend = fakeBackend({ submissions: sample(), functionResults: [{ _id: 'fr-2', submission: 's2' }] });
    const user = userEvent.setup();
    renderSubmissions(PAGE);
    await screen.findByRole('table', { name: 'Submissions' });
    expect(screen.queryByRole('button', { name: 'Delete selected' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('checkbox', { name: 'Select all submissions' }));
    expect(screen.getByText('4 selected')).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Select essay-b.pdf' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select notes.txt' }));
    expect(screen.getByText('2 selected')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Select all submissions' })).toHaveAttribute('data-indeterminate', 'true');

    await user.click(screen.getByRole('button', { name: 'Delete selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete 2 submissions?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(backend.bodies('db/assignment/delete-submissions-and-function-results')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Delete selected' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete 2 submissions?' })).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Deleted 2 submissions.');
    await waitFor(() => expect(names()).toEqual(['essay-b.pdf', 'notes.txt']));
    expect(backend.bodies('db/assignment/delete-submissions-and-function-results')).toEqual([
      { assignmentId: ASSIGNMENT_ID, submissionIds: expect.arrayContaining(['s2', 's3']), frIds: ['fr-2'], type: 'grade' },
    ]);
    expect(screen.getByText('2 submissions')).toBeInTheDocument();
  });

  it('deletes one submission from its menu', async () => {
    const backend = fakeBackend({ submissions: sample() });
    const user = userEvent.setup();
    renderSubmissions(PAGE);

    await user.click(await screen.findByRole('button', { name: 'Actions for scan.png' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete scan.png?' })).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Deleted scan.png.');
    await waitFor(() => expect(names()).not.toContain('scan.png'));
    expect(backend.bodies('db/assignment/delete-submission-and-function-result')).toEqual([
      { assignmentId: ASSIGNMENT_ID, submissionId: 's3', type: 'grade', frId: null },
    ]);
  });

  it("sets a student's email with the spec's toasts", async () => {
    const backend = fakeBackend({ submissions: sample() });
    const user = userEvent.setup();
    renderSubmissions(PAGE);

    await user.click(await screen.findByRole('button', { name: 'Actions for essay-b.pdf' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Set student email' }));
    const dialog = await screen.findByRole('dialog', { name: 'Student email for essay-b.pdf' });
    const field = within(dialog).getByRole('textbox', { name: 'Student email' });
    await user.type(field, 'zoe@');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Enter an email address like name@school.org, or leave it empty.')).toBeInTheDocument();
    expect(backend.bodies('db/submission/update')).toEqual([]);

    await user.type(field, 'school.org');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Email set successfully.');
    expect(backend.bodies('db/submission/update')).toEqual([{ submissionId: 's1', submission: { studentEmail: 'zoe@school.org' } }]);
    const row = await screen.findByRole('row', { name: /essay-b\.pdf/ });
    expect(await within(row).findByText('zoe@school.org')).toBeInTheDocument();
  });

  it('says so when the email cannot be set', async () => {
    fakeBackend({ submissions: sample(), failing: { 'db/submission/update': { status: 500, message: 'boom' } } });
    const user = userEvent.setup();
    renderSubmissions(PAGE);

    await user.click(await screen.findByRole('button', { name: 'Actions for essay-a.pdf' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Set student email' }));
    const dialog = await screen.findByRole('dialog', { name: 'Student email for essay-a.pdf' });
    expect(within(dialog).getByRole('textbox', { name: 'Student email' })).toHaveValue('ann@school.org');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    // Said in the dialog, which stays open, and in the toast behind it.
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to set email.');
    expect(screen.getAllByRole('alert', { hidden: true }).map((a) => a.textContent)).toContain('Failed to set email.');
    expect(screen.getByRole('dialog', { name: 'Student email for essay-a.pdf' })).toBeInTheDocument();
  });

  it('renames a submission', async () => {
    const backend = fakeBackend({ submissions: sample() });
    const user = userEvent.setup();
    renderSubmissions(PAGE);

    await user.click(await screen.findByRole('button', { name: 'Actions for notes.txt' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Rename' }));
    const field = within(await screen.findByRole('dialog', { name: 'Rename submission' })).getByRole('textbox', { name: 'Submission name' });
    await user.clear(field);
    await user.type(field, 'Ann - notes.txt');
    await user.keyboard('{Enter}');

    expect(await screen.findByRole('alert')).toHaveTextContent('Submission renamed.');
    expect(backend.bodies('db/submission/update')).toEqual([{ submissionId: 's4', submission: { name: 'Ann - notes.txt' } }]);
    await waitFor(() => expect(names()).toContain('Ann - notes.txt'));
  });

  it('shows the text read from a submission as text, never as markup', async () => {
    const backend = fakeBackend({
      submissions: [submission('s1', 'essay.pdf')],
      texts: { s1: { text: 'Dear <b>reader</b>, <img src=x onerror=alert(1)>', pages: [] } },
    });
    const user = userEvent.setup();
    renderSubmissions(PAGE);
    await screen.findByRole('table', { name: 'Submissions' });

    await user.click(screen.getByRole('button', { name: 'Actions for essay.pdf' }));
    await user.click(await screen.findByRole('menuitem', { name: 'View text' }));

    const dialog = await screen.findByRole('dialog', { name: 'essay.pdf' });
    expect(await within(dialog).findByText('Dear <b>reader</b>, <img src=x onerror=alert(1)>')).toBeInTheDocument();
    expect(dialog.querySelector('img, b')).toBeNull();
    expect(backend.bodies('db/submission/get')).toEqual([{ submissionId: 's1' }]);
  });

  it('shows a multi-page submission page by page, with how each was read and its warnings', async () => {
    const unsure = 'Page 1 was read by OCR, which was unsure of it (41%): check it against the original';
    fakeBackend({
      submissions: [submission('s1', 'scan.pdf', { pageCount: 2, error: 'No text found on 1 of 2 pages' })],
      texts: { s1: { text: 'First page', pages: [{ text: 'First page', source: 'ocr', confidence: 41, warning: unsure }, { text: '', source: 'ocr' }] } },
    });
    const user = userEvent.setup();
    renderSubmissions(PAGE);

    await user.click(await screen.findByRole('button', { name: 'Actions for scan.pdf' }));
    await user.click(await screen.findByRole('menuitem', { name: 'View text' }));

    const dialog = await screen.findByRole('dialog', { name: 'scan.pdf' });
    const first = await within(dialog).findByRole('region', { name: 'Page 1' });
    expect(first).toHaveTextContent('First page');
    expect(first).toHaveTextContent('Page 1 · OCR 41%');
    expect(within(first).getByText(unsure)).toBeInTheDocument();
    expect(within(dialog).getByRole('region', { name: 'Page 2' })).toHaveTextContent('No text found on this page.');
    expect(within(dialog).getByText('No text found on 1 of 2 pages')).toBeInTheDocument();
  });

  it('invites an upload when there are no submissions', async () => {
    fakeBackend();
    renderSubmissions(PAGE);

    expect(await screen.findByText('No submissions yet')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload files' })).toBeEnabled();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});
