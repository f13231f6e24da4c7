import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { server } from '../../../testing/server';
import { renderWithProviders } from '../../../testing/test-utils';
import { fileNameFrom } from '../api/reports';
import { DownloadReportButton } from './DownloadReportButton';
import { PrintReportsButton } from './PrintReportsButton';

const RUN = { _id: 'r1', createdAt: '2026-11-27T10:00:00Z', total: 3 };

describe('PrintReportsButton', () => {
  it('starts a run of the selected rows, shows its progress, then the ZIP and the PDF', async () => {
    const started: unknown[] = [];
    let polls = 0;
    server.use(
      http.post('/api/v1/db/assignment/reports/start', async ({ request }) => {
        started.push(await request.json());
        return HttpResponse.json({ data: { report: { ...RUN, status: 'queued', done: 0 } } });
      }),
      http.post('/api/v1/db/assignment/reports/get', () => {
        polls += 1;
        if (polls === 1) return HttpResponse.json({ data: { report: { ...RUN, status: 'running', done: 1 } } });
        return HttpResponse.json({
          data: { report: { ...RUN, status: 'done', done: 3, zipUrl: '/files/r.zip?sig=1', pdfUrl: '/files/r.pdf?sig=1' } },
        });
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<PrintReportsButton assignmentId="a1" submissionIds={['s1', 's2', 's3']} />);

    await user.click(screen.getByRole('button', { name: 'Print reports (3)' }));
    expect(await screen.findByRole('dialog', { name: 'Print feedback reports' })).toBeInTheDocument();
    expect(await screen.findByText('Made 1 of 3 reports…')).toBeInTheDocument();
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '33');
    expect(started).toEqual([{ assignmentId: 'a1', submissionIds: ['s1', 's2', 's3'] }]);

    // Polled again 2 s later: done.
    expect(await screen.findByText('3 reports ready.', {}, { timeout: 4000 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download all (ZIP)' })).toHaveAttribute('href', '/files/r.zip?sig=1');
    expect(screen.getByRole('link', { name: 'Print (one PDF)' })).toHaveAttribute('href', '/files/r.pdf?sig=1');
  });

  it('prints every submission when none is selected, and follows a run already in progress (409)', async () => {
    const started: unknown[] = [];
    server.use(
      http.post('/api/v1/db/assignment/reports/start', async ({ request }) => {
        started.push(await request.json());
        return HttpResponse.json({ error: { message: 'Reports are already being made for this assignment.' } }, { status: 409 });
      }),
      http.post('/api/v1/db/assignment/reports/get', () =>
        HttpResponse.json({ data: { report: { ...RUN, status: 'running', done: 2 } } }),
      ),
    );
    const user = userEvent.setup();
    renderWithProviders(<PrintReportsButton assignmentId="a1" submissionIds={[]} />);
    await user.click(screen.getByRole('button', { name: 'Print reports' }));
    expect(await screen.findByText('Made 2 of 3 reports…')).toBeInTheDocument();
    expect(started).toEqual([{ assignmentId: 'a1' }]);
  });

  it('shows why a run failed, with Try again', async () => {
    let starts = 0;
    server.use(
      http.post('/api/v1/db/assignment/reports/start', () => {
        starts += 1;
        return HttpResponse.json({ data: { report: { ...RUN, status: 'queued', done: 0 } } });
      }),
      http.post('/api/v1/db/assignment/reports/get', () =>
        HttpResponse.json({ data: { report: { ...RUN, status: 'failed', done: 0, error: 'The report of Ana could not be turned into a PDF.' } } }),
      ),
    );
    const user = userEvent.setup();
    renderWithProviders(<PrintReportsButton assignmentId="a1" submissionIds={[]} />);
    await user.click(screen.getByRole('button', { name: 'Print reports' }));
    expect(await screen.findByText('The report of Ana could not be turned into a PDF.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(starts).toBe(2));
  });
});

describe('DownloadReportButton', () => {
  it('downloads the PDF under the name the server gives, and shows a refusal', async () => {
    const createObjectURL = vi.fn(() => 'blob:report');
    const revokeObjectURL = vi.fn();
    Object.assign(URL, { createObjectURL, revokeObjectURL });
    const clicked: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    let fail = false;
    server.use(
      http.post('/api/v1/db/assignment/report/student', () =>
        fail
          ? HttpResponse.json({ error: { message: 'Reports cannot be made on this server.' } }, { status: 500 })
          : new HttpResponse(new Blob(['%PDF-1.7']), {
              headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': "attachment; filename*=utf-8''%D0%AF%D1%80%D0%B0.pdf" },
            }),
      ),
    );
    const user = userEvent.setup();
    renderWithProviders(<DownloadReportButton assignmentId="a1" submissionId="s1" />);
    await user.click(screen.getByRole('button', { name: 'Download report (PDF)' }));
    await waitFor(() => expect(clicked).toEqual(['Яра.pdf']));
    fail = true;
    await user.click(screen.getByRole('button', { name: 'Download report (PDF)' }));
    expect(await screen.findByText('Reports cannot be made on this server.')).toBeInTheDocument();
    click.mockRestore();
  });

  it('reads plain and encoded file names', () => {
    expect(fileNameFrom('attachment; filename="Ana.pdf"', 'x.pdf')).toBe('Ana.pdf');
    expect(fileNameFrom(null, 'x.pdf')).toBe('x.pdf');
  });
});
