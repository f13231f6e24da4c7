import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderRoutes } from '../../../testing/render-routes';
import { server } from '../../../testing/server';
import type { PageQuality } from '../../../lib/page-source';
import { OriginalBesideText } from './OriginalBesideText';

function serve(original: unknown) {
  const pages: unknown[] = [];
  server.use(
    http.post('/api/v1/db/submission/original/get', () => HttpResponse.json({ data: { original } })),
    http.post('/api/v1/db/submission/original/page', async ({ request }) => {
      const body = (await request.json()) as { page: number };
      pages.push(body.page);
      return HttpResponse.json({ data: { url: `/files/page-${body.page}.jpg` } });
    }),
  );
  return pages;
}

const LOCATION = 'https://app.test/files/assignments/a/submissions/0123456789abcdef-scan.pdf';

function renderBeside(location = LOCATION, pages?: PageQuality[], initialPage?: number) {
  return renderRoutes(
    [
      {
        path: '*',
        element: (
          <OriginalBesideText submission={{ _id: 's1', location, pages }} initialPage={initialPage}>
            <p>The text read from it</p>
          </OriginalBesideText>
        ),
      },
    ],
    { initialEntries: ['/'] },
  );
}

const PDF = {
  kind: 'pages',
  format: 'pdf',
  fileName: 'scan.pdf',
  pageCount: 2,
  converted: false,
  pages: [
    { number: 1, check: false, confidence: 91 },
    { number: 2, check: true, confidence: 38 },
  ],
  problem: '',
};

describe('OriginalBesideText', () => {
  it('shows the pages beside the text, pages with buttons, and asks to check a page OCR was unsure of', async () => {
    const pages = serve(PDF);
    const user = userEvent.setup();
    renderBeside();

    expect(await screen.findByRole('img', { name: 'Page 1 of 2 of the original' })).toHaveAttribute('src', '/files/page-0.jpg');
    expect(screen.getByText('The text read from it')).toBeInTheDocument();
    expect(screen.queryByText(/Check this page against the original/)).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByRole('img', { name: 'Page 2 of 2 of the original' })).toHaveAttribute('src', '/files/page-1.jpg');
    expect(screen.getByText(/Check this page against the original/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
    expect(pages).toEqual([0, 1]);

    await user.click(screen.getByRole('button', { name: 'Zoom in' }));
    expect(screen.getByText('150%')).toBeInTheDocument();
  });

  it('gives a text file, whose text is its original, the text alone', async () => {
    serve({ ...PDF, kind: 'text', format: 'text', pageCount: 0, pages: [] });
    renderBeside();
    await screen.findByText('The text read from it');
    // Shown "Preparing the original…" while it loads, then gone.
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Original' })).not.toBeInTheDocument());
    expect(screen.queryByRole('group', { name: 'Show the original or the text' })).not.toBeInTheDocument();
  });

  it('names a presentation LibreOffice converted as shown by its slides', async () => {
    serve({ ...PDF, format: 'odp', fileName: 'talk.odp', converted: true });
    renderBeside();
    expect(await screen.findByText(/OpenDocument presentation, shown as its slides/)).toBeInTheDocument();
  });

  it('says why a Word file cannot be shown, and still offers the download', async () => {
    serve({ ...PDF, kind: 'none', format: 'docx', fileName: 'essay.docx', pageCount: 0, pages: [], problem: 'This file could not be shown as pages. Download the original to open it.' });
    renderBeside();
    expect(await screen.findByText('This file could not be shown as pages. Download the original to open it.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download original' })).toBeInTheDocument();
  });

  const WARNING = 'Page 2 was read by OCR, which was unsure of it (38%): check it against the original';
  const QUALITY: PageQuality[] = [
    { source: 'file', confidence: null, warning: '' },
    { source: 'ocr', confidence: 38, warning: WARNING },
  ];

  it('names the pages that may be misread above the text, and opens the original at one', async () => {
    const pages = serve(PDF);
    const user = userEvent.setup();
    renderBeside(LOCATION, QUALITY);

    const notice = await screen.findByRole('alert', { name: 'Text that may be misread' });
    expect(notice).toHaveTextContent(WARNING);
    expect(await screen.findByRole('img', { name: 'Page 1 of 2 of the original' })).toBeInTheDocument();
    expect(screen.getByText('Text read from: Text layer')).toBeInTheDocument();

    await user.click(within(notice).getByRole('button', { name: 'Show page 2 of the original' }));
    expect(await screen.findByRole('img', { name: 'Page 2 of 2 of the original' })).toBeInTheDocument();
    expect(screen.getByText('Text read from: OCR 38%')).toBeInTheDocument();
    // The page's own reason, not the general one.
    expect(within(screen.getByRole('region', { name: 'Original' })).getByText(WARNING)).toBeInTheDocument();
    expect(screen.queryByText(/Check this page against the original/)).not.toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Original page' })).toHaveFocus();
    expect(pages).toEqual([0, 1]);
  });

  it('opens at the page a link from the table names', async () => {
    const pages = serve(PDF);
    renderBeside(LOCATION, QUALITY, 2);
    expect(await screen.findByRole('img', { name: 'Page 2 of 2 of the original' })).toBeInTheDocument();
    expect(pages).toEqual([1]);
  });

  it('still names a misread page when there is no original to show', async () => {
    serve({ ...PDF, kind: 'text', format: 'text', pageCount: 0, pages: [] });
    renderBeside(LOCATION, [{ source: 'file', confidence: null, warning: 'Some characters in this file look garbled (“¦¬Äµ”), so words may be wrong or missing' }]);
    const notice = await screen.findByRole('alert', { name: 'Text that may be misread' });
    expect(notice).toHaveTextContent('look garbled (“¦¬Äµ”)');
    expect(within(notice).queryByRole('button')).not.toBeInTheDocument();
  });
});
