import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { server } from '../../../testing/server';
import { renderWithProviders } from '../../../testing/test-utils';
import { fileNameFrom } from '../api/export-results';
import { ExportMenu } from './ExportMenu';

const ASSIGNMENT_ID = 'a1111111-1111-4111-8111-111111111111';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The requests the fake export route got, and what it answers. */
function fakeExport(answer?: () => Response | Promise<Response>) {
  const bodies: unknown[] = [];
  server.use(
    http.post('/api/v1/db/assignment/export', async ({ request }) => {
      bodies.push(await request.json());
      if (answer) return answer();
      return new HttpResponse('\ufeffStudent,Total\r\nAna,3\r\n', {
        headers: {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="Essay _ - results.csv"; filename*=UTF-8''Essay%20%C3%A9%20-%20results.csv`,
        },
      });
    }),
  );
  return bodies;
}

/** Catches the download: the object URL made and the <a download> clicked. */
function catchDownloads() {
  const saved: { name: string; blob: Blob }[] = [];
  const blobs = new Map<string, Blob>();
  let n = 0;
  vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => {
    const url = `blob:test/${++n}`;
    blobs.set(url, b as Blob);
    return url;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, blob: blobs.get(this.href)! });
  });
  return saved;
}

beforeEach(() => vi.useRealTimers());
afterEach(() => vi.restoreAllMocks());

describe('ExportMenu', { timeout: 30_000 }, () => {
  it('exports every submission as CSV and downloads the file under the server’s name', async () => {
    const bodies = fakeExport();
    const saved = catchDownloads();
    const user = userEvent.setup();
    renderWithProviders(<ExportMenu assignmentId={ASSIGNMENT_ID} selectedIds={[]} />);

    await user.click(screen.getByRole('button', { name: 'Export' }));
    await user.click(screen.getByRole('menuitem', { name: 'CSV' }));

    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0].name).toBe('Essay é - results.csv');
    expect(await saved[0].blob.text()).toContain('Ana,3');
    expect(bodies).toEqual([{ assignmentId: ASSIGNMENT_ID, format: 'csv', includeFeedback: false }]);
  });

  it('exports the selected rows as Excel with the feedback text when ticked, keyboard only', async () => {
    const bodies = fakeExport(
      () => new HttpResponse(new Uint8Array([0x50, 0x4b, 3, 4]), { headers: { 'Content-Type': XLSX, 'Content-Disposition': 'attachment; filename="Essay - results.xlsx"' } }),
    );
    const saved = catchDownloads();
    const user = userEvent.setup();
    renderWithProviders(<ExportMenu assignmentId={ASSIGNMENT_ID} selectedIds={['s1', 's2', 's3']} />);

    const button = screen.getByRole('button', { name: 'Export 3 selected' });
    button.focus();
    await user.keyboard('{Enter}');
    const feedback = await screen.findByRole('menuitemcheckbox', { name: 'Include feedback text' });
    expect(feedback).toHaveAttribute('aria-checked', 'false');
    await user.click(feedback);
    expect(feedback).toHaveAttribute('aria-checked', 'true');
    await user.click(screen.getByRole('menuitem', { name: 'Excel (XLSX)' }));

    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0].name).toBe('Essay - results.xlsx');
    expect(bodies).toEqual([{ assignmentId: ASSIGNMENT_ID, format: 'xlsx', submissionIds: ['s1', 's2', 's3'], includeFeedback: true }]);
  });

  it('spins while the file is made, then shows the server’s refusal', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    fakeExport(async () => {
      await gate;
      return HttpResponse.json({ error: { code: 'not_found', message: 'Not found' } }, { status: 404 });
    });
    const saved = catchDownloads();
    const user = userEvent.setup();
    renderWithProviders(<ExportMenu assignmentId={ASSIGNMENT_ID} selectedIds={[]} />);

    await user.click(screen.getByRole('button', { name: 'Export' }));
    await user.click(screen.getByRole('menuitem', { name: 'CSV' }));
    const busy = await screen.findByRole('button', { name: /Export/ });
    await waitFor(() => expect(busy).toBeDisabled());
    expect(screen.getByRole('progressbar', { name: 'Exporting' })).toBeInTheDocument();

    release();
    expect(await screen.findByRole('alert')).toHaveTextContent('Not found');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Export' })).toBeEnabled());
    expect(saved).toHaveLength(0);
  });
});

describe('fileNameFrom', () => {
  it('prefers the UTF-8 name, then the plain one, then the fallback', () => {
    expect(fileNameFrom(`attachment; filename="a_.csv"; filename*=UTF-8''a%C3%A9.csv`, 'x')).toBe('aé.csv');
    expect(fileNameFrom('attachment; filename="Essay - results.xlsx"', 'x')).toBe('Essay - results.xlsx');
    expect(fileNameFrom(null, 'results.csv')).toBe('results.csv');
  });
});
