import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { server } from '../../../testing/server';
import { renderToolsPage, serveCatalog } from '../testing/render';

const BLOB = 'http://localhost:3000/blob/';

/** Records the bodies of rubric-from-sheet calls and answers each with `answer`. */
function rubricEndpoint(answer: () => Response | Promise<Response>) {
  const bodies: unknown[] = [];
  server.use(
    http.post('/api/v1/ai-assist/rubric-from-sheet', async ({ request }) => {
      bodies.push(await request.json());
      return answer();
    }),
  );
  return bodies;
}

/** A fake storage: s3-upload signs a URL under BLOB, the PUT is accepted, the PDF is read as `read`. */
function pdfBackend(read: () => Response) {
  const calls: { path: string; body: unknown }[] = [];
  server.use(
    http.post('/api/v1/s3-upload', async ({ request }) => {
      const body = (await request.json()) as { fileName: string };
      calls.push({ path: 's3-upload', body });
      return HttpResponse.json({ data: { signedUrl: `${BLOB}${body.fileName}?sig=abc` } });
    }),
    http.put(`${BLOB}*`, ({ request }) => {
      calls.push({ path: `PUT ${new URL(request.url).pathname}`, body: request.headers.get('Content-Type') });
      return new HttpResponse(null, { status: 200 });
    }),
    http.post('/api/v1/upload-and-read-pdf', async ({ request }) => {
      calls.push({ path: 'upload-and-read-pdf', body: await request.json() });
      return read();
    }),
  );
  return calls;
}

async function openDialog() {
  serveCatalog();
  const user = userEvent.setup();
  const rendered = renderToolsPage();
  await user.click(await screen.findByRole('button', { name: 'Start Rubric from an assignment sheet' }));
  const dialog = await screen.findByRole('dialog', { name: 'Rubric from an assignment sheet' });
  return { user, dialog, ...rendered };
}

afterEach(() => vi.restoreAllMocks());

describe('rubric from an assignment sheet', { timeout: 30_000 }, () => {
  it('asks for the sheet when it is empty and sends nothing', async () => {
    const bodies = rubricEndpoint(() => HttpResponse.json({ data: { rubric: { _id: 'r1' } } }));
    const { user, dialog } = await openDialog();

    await user.type(within(dialog).getByRole('textbox', { name: 'Assignment sheet' }), '   ');
    await user.click(within(dialog).getByRole('button', { name: 'Create rubric' }));

    expect(await screen.findByText('Please fill in all required fields')).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: 'Assignment sheet' })).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByText('Paste the assignment sheet or attach a PDF.')).toBeInTheDocument();
    expect(bodies).toEqual([]);
  });

  it('saves the rubric, says so and opens it in the editor', async () => {
    let release!: () => void;
    const answered = new Promise<void>((resolve) => (release = resolve));
    const bodies = rubricEndpoint(async () => {
      await answered;
      return HttpResponse.json({ data: { rubric: { _id: 'rub-42', name: 'Persuasive essay', criteria: [] } } });
    });
    const { user, dialog, router } = await openDialog();

    await user.click(within(dialog).getByRole('textbox', { name: 'Assignment sheet' }));
    await user.paste('  Write a persuasive essay on school uniforms.  ');
    await user.click(within(dialog).getByRole('button', { name: 'Create rubric' }));

    // While the model works: a progress indicator, and the button cannot be pressed again.
    expect(await within(dialog).findByRole('progressbar', { name: 'Creating rubric' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: /Create rubric/ })).toBeDisabled();
    release();

    await waitFor(() => expect(router.state.location.pathname).toBe('/rubrics/rub-42'));
    expect(await screen.findByText('Rubric saved to your library')).toBeInTheDocument();
    expect(bodies).toEqual([{ assignmentText: 'Write a persuasive essay on school uniforms.' }]);
  });

  it("shows the server's message and keeps the text when the rubric cannot be made", async () => {
    const bodies = rubricEndpoint(() =>
      HttpResponse.json({ error: { code: 'internal', message: 'Failed to generate rubric.' } }, { status: 502 }),
    );
    const { user, dialog, router } = await openDialog();

    const sheet = within(dialog).getByRole('textbox', { name: 'Assignment sheet' });
    await user.type(sheet, 'Lab report on osmosis');
    await user.click(within(dialog).getByRole('button', { name: 'Create rubric' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to generate rubric.');
    expect(screen.getAllByText('Failed to generate rubric.').length).toBeGreaterThanOrEqual(2); // the toast too
    expect(screen.getByRole('dialog', { name: 'Rubric from an assignment sheet' })).toBeInTheDocument();
    expect(sheet).toHaveValue('Lab report on osmosis');
    expect(within(dialog).getByRole('button', { name: 'Create rubric' })).toBeEnabled();
    expect(router.state.location.pathname).toBe('/tools');
    expect(bodies).toHaveLength(1);
  });

  it('reads an attached PDF into the text box through the chats folder', async () => {
    const calls = pdfBackend(() =>
      HttpResponse.json({ data: { textArray: ['Task: design a poster about the water cycle.'], error: false } }),
    );
    const bodies = rubricEndpoint(() => HttpResponse.json({ data: { rubric: { _id: 'rub-7' } } }));
    const { user, dialog, router } = await openDialog();

    const pdf = new File(['%PDF-1.4 poster'], 'Poster task.pdf', { type: 'application/pdf' });
    await user.upload(within(dialog).getByLabelText('PDF of the assignment sheet'), pdf);

    const sheet = within(dialog).getByRole('textbox', { name: 'Assignment sheet' });
    await waitFor(() => expect(sheet).toHaveValue('Task: design a poster about the water cycle.'));
    expect(calls).toEqual([
      { path: 's3-upload', body: { fileName: 'chats/Postertask.pdf', fileType: 'application/pdf', fileSize: pdf.size } },
      { path: 'PUT /blob/chats/Postertask.pdf', body: 'application/pdf' },
      { path: 'upload-and-read-pdf', body: { fileLinks: [`${BLOB}chats/Postertask.pdf`] } },
    ]);

    await user.click(within(dialog).getByRole('button', { name: 'Create rubric' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/rubrics/rub-7'));
    expect(bodies).toEqual([{ assignmentText: 'Task: design a poster about the water cycle.' }]);
  });

  it("says it couldn't read a PDF that gave no text, and keeps what was typed", async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    pdfBackend(() =>
      HttpResponse.json({
        data: { textArray: ['[Could not read scan.pdf: damaged file]'], error: true, message: 'Could not read scan.pdf.' },
      }),
    );
    const bodies = rubricEndpoint(() => HttpResponse.json({ data: { rubric: { _id: 'r1' } } }));
    const { user, dialog } = await openDialog();

    const sheet = within(dialog).getByRole('textbox', { name: 'Assignment sheet' });
    await user.type(sheet, 'My notes');
    await user.upload(within(dialog).getByLabelText('PDF of the assignment sheet'), new File(['x'], 'scan.pdf', { type: 'application/pdf' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent("Couldn't read PDF");
    expect(screen.getAllByText("Couldn't read PDF").length).toBeGreaterThanOrEqual(2);
    expect(sheet).toHaveValue('My notes');
    expect(bodies).toEqual([]);
  });

  it("says it couldn't read a PDF when the server refuses it", async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    pdfBackend(() => HttpResponse.json({ error: { code: 'invalid', message: 'File not found' } }, { status: 400 }));
    const { user, dialog } = await openDialog();

    await user.upload(within(dialog).getByLabelText('PDF of the assignment sheet'), new File(['x'], 'task.pdf', { type: 'application/pdf' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent("Couldn't read PDF");
    expect(within(dialog).getByRole('textbox', { name: 'Assignment sheet' })).toHaveValue('');
  });
});
