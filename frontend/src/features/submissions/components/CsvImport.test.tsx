import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CsvPreview } from '../api/types';
import { apiError, ASSIGNMENT_ID, BLOB_BASE, fakeBackend } from '../testing/fake-backend';
import { renderSubmissions } from '../testing/render';

const PAGE = `/assignment/${ASSIGNMENT_ID}`;
const FOLDER = `assignments/${ASSIGNMENT_ID}/submissions/`;
const QUESTIONS = ['Explain the causes of the war.', 'Which cause mattered most?'];

const PREVIEW: CsvPreview = {
  headers: ['Student', 'Email', 'Q1 answer', 'Q2 answer'],
  rows: [
    ['Ann Lee', 'ann@school.org', 'Alliances <b>and</b> militarism', 'Alliances'],
    ['Ben Cho', 'ben@school.org', 'Nationalism', 'Nationalism'],
  ],
  rowCount: 3,
  delimiter: ',',
  mapping: { nameColumn: 0, emailColumn: 1, questions: [{ question: 0, column: 2 }, { question: 1, column: 2 }] },
};

function csvFile(name = 'class 9B.csv', type = 'text/csv') {
  return new File(['Student,Email,Q1 answer,Q2 answer\nAnn Lee,ann@school.org,Alliances,Alliances\n'], name, { type });
}

afterEach(() => vi.restoreAllMocks());

describe('CSV import', { timeout: 30_000 }, () => {
  it('uploads the CSV, preselects the suggested mapping, lets the teacher change it and sends it', async () => {
    const backend = fakeBackend({ previewCsv: () => PREVIEW });
    const user = userEvent.setup();
    renderSubmissions(PAGE, { questions: QUESTIONS });

    await user.upload(await screen.findByLabelText('Choose a CSV file'), csvFile());

    const dialog = await screen.findByRole('dialog', { name: 'Import submissions from CSV' });
    expect(within(dialog).getByText('class 9B.csv: 3 rows, the first 2 shown.')).toBeInTheDocument();
    const preview = within(dialog).getByRole('table', { name: 'First rows of the CSV file' });
    expect(within(preview).getAllByRole('columnheader').map((c) => c.textContent)).toEqual(PREVIEW.headers);
    expect(within(preview).getByText('Alliances <b>and</b> militarism')).toBeInTheDocument();
    expect(preview.querySelector('b')).toBeNull();

    const name = within(dialog).getByRole('combobox', { name: 'Student name' });
    const email = within(dialog).getByRole('combobox', { name: 'Student email' });
    const q1 = within(dialog).getByRole('combobox', { name: QUESTIONS[0] });
    const q2 = within(dialog).getByRole('combobox', { name: QUESTIONS[1] });
    expect(name).toHaveDisplayValue('Student');
    expect(email).toHaveDisplayValue('Email');
    expect(q1).toHaveDisplayValue('Q1 answer');
    expect(q2).toHaveDisplayValue('Q1 answer');

    await user.selectOptions(q2, 'Q2 answer');
    await user.selectOptions(email, 'No email column');
    await user.click(within(dialog).getByRole('button', { name: 'Import 3 submissions' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Imported 3 submissions');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    const [upload] = backend.bodies('s3-upload');
    expect(upload).toEqual({ fileName: `${FOLDER}class9B.csv`, fileType: 'text/csv', fileSize: csvFile().size });
    const put = backend.calls.find((c) => c.path.startsWith('PUT '));
    expect(put?.body.contentType).toBe('text/csv');
    const [previewed] = backend.bodies('db/assignment/preview-csv');
    expect(previewed).toEqual({ assignmentId: ASSIGNMENT_ID, csvLocation: expect.stringMatching(new RegExp(`^${BLOB_BASE}${FOLDER}\\d+-class9B\\.csv$`)) });
    expect(backend.bodies('db/assignment/update-submissions-csv')).toEqual([
      {
        assignmentId: ASSIGNMENT_ID,
        submissionRole: 'teacher',
        type: 'grade',
        csvLocation: previewed.csvLocation,
        parsedCSV: { nameColumn: 0, emailColumn: -1, questions: [{ question: 0, column: 2 }, { question: 1, column: 3 }] },
      },
    ]);
    // The imported rows are listed.
    const table = await screen.findByRole('table', { name: 'Submissions' });
    expect(within(table).getByRole('rowheader', { name: 'Ann Lee' })).toBeInTheDocument();
  });

  it("shows the server's message when the CSV cannot be read", async () => {
    fakeBackend({ previewCsv: () => apiError(400, 'Error reading CSV file: row 3 has 5 fields, expected 4') });
    const user = userEvent.setup();
    renderSubmissions(PAGE, { questions: QUESTIONS });

    await user.upload(await screen.findByLabelText('Choose a CSV file'), csvFile());

    expect(await screen.findByRole('alert')).toHaveTextContent('Error reading CSV file: row 3 has 5 fields, expected 4');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('keeps the mapping open with the message when the import fails', async () => {
    fakeBackend({ previewCsv: () => PREVIEW, importCsv: () => apiError(400, 'Uploaded file is not a CSV file.') });
    const user = userEvent.setup();
    renderSubmissions(PAGE, { questions: QUESTIONS });

    await user.upload(await screen.findByLabelText('Choose a CSV file'), csvFile());
    const dialog = await screen.findByRole('dialog', { name: 'Import submissions from CSV' });
    await user.click(within(dialog).getByRole('button', { name: 'Import 3 submissions' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Uploaded file is not a CSV file.');
  });

  it('asks for at least one answer column', async () => {
    const backend = fakeBackend({ previewCsv: () => ({ ...PREVIEW, mapping: { nameColumn: 0, emailColumn: 1, questions: [] } }) });
    const user = userEvent.setup();
    renderSubmissions(PAGE, { questions: QUESTIONS });

    await user.upload(await screen.findByLabelText('Choose a CSV file'), csvFile());
    const dialog = await screen.findByRole('dialog', { name: 'Import submissions from CSV' });
    expect(within(dialog).getByRole('combobox', { name: QUESTIONS[0] })).toHaveDisplayValue('Not in this file');
    await user.click(within(dialog).getByRole('button', { name: 'Import 3 submissions' }));

    expect(within(dialog).getByRole('alert')).toHaveTextContent('Choose the column of at least one question’s answers.');
    expect(backend.bodies('db/assignment/update-submissions-csv')).toEqual([]);
  });

  it('refuses a file that is not a CSV before uploading it', async () => {
    const backend = fakeBackend({ previewCsv: () => PREVIEW });
    const user = userEvent.setup({ applyAccept: false });
    renderSubmissions(PAGE, { questions: QUESTIONS });

    await user.upload(await screen.findByLabelText('Choose a CSV file'), new File(['x'], 'marks.xlsx', { type: 'application/vnd.ms-excel' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Uploaded file is not a CSV file.');
    expect(backend.bodies('s3-upload')).toEqual([]);
  });

  it('is not offered for a feedback assignment, and says why', async () => {
    fakeBackend({ assignment: { type: 'feedback' } });
    const user = userEvent.setup();
    renderSubmissions(PAGE);

    const button = await screen.findByRole('button', { name: 'Import CSV' });
    expect(button).toBeDisabled();
    expect(screen.queryByLabelText('Choose a CSV file')).not.toBeInTheDocument();
    await user.hover(button.parentElement!);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('This assignment type does not support CSV uploads');
  });
});
