import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { server } from '../../../testing/server';
import { renderWithProviders } from '../../../testing/test-utils';
import type { AnswerBox, AnswerBoxes } from '../api/types';
import { flattenQuestions } from '../lib/questions';
import { AnswerBoxesPanel } from './AnswerBoxesPanel';

const QUESTIONS = flattenQuestions([
  { questionText: 'Solve for x.' },
  { questionText: 'Graphs', subquestions: [{ questionText: 'Plot the line.' }, { questionText: 'Find the slope.' }] },
]);

const HANDWRITTEN = { _id: 'a1', type: 'grade', isHandWritten: true };

/** A fake backend for assignment a1: records update bodies and page-image requests. */
function setup(initial: AnswerBoxes = { boxes: [], sample: { submissionId: 's1', pageCount: 2 } }, assignment = HANDWRITTEN) {
  let state = initial;
  const updates: { assignmentId: string; boxes: AnswerBox[] }[] = [];
  const pages: { submissionId: string; page: number }[] = [];
  server.use(
    http.post('/api/v1/db/assignment/answer-boxes/get', async ({ request }) => {
      const { assignmentId } = (await request.json()) as { assignmentId: string };
      if (assignmentId !== 'a1') return HttpResponse.json({ error: { code: 'not_found', message: 'Not found' } }, { status: 404 });
      return HttpResponse.json({ data: state });
    }),
    http.post('/api/v1/db/assignment/answer-boxes/update', async ({ request }) => {
      const body = (await request.json()) as { assignmentId: string; boxes: AnswerBox[] };
      updates.push(body);
      state = { ...state, boxes: body.boxes };
      return HttpResponse.json({ data: { boxes: body.boxes } });
    }),
    http.post('/api/v1/db/submission/page-image', async ({ request }) => {
      const body = (await request.json()) as { submissionId: string; page: number };
      pages.push(body);
      return HttpResponse.json({ data: { url: `https://blobs.test/${body.submissionId}/page-${body.page}.jpg?sig=x` } });
    }),
  );
  const user = userEvent.setup();
  renderWithProviders(<AnswerBoxesPanel assignment={assignment} questions={QUESTIONS} />);
  return { user, updates, pages };
}

/** Gives the page image a displayed size of 400 × 500 px at (100, 50) on screen. */
function placeImage(img: HTMLElement) {
  vi.spyOn(img, 'getBoundingClientRect').mockReturnValue(DOMRect.fromRect({ x: 100, y: 50, width: 400, height: 500 }));
}

/** Drags on the page image from one screen point to another, as a mouse would. */
function drag(img: HTMLElement, from: [number, number], to: [number, number]) {
  fireEvent.pointerDown(img, { clientX: from[0], clientY: from[1], pointerId: 1, button: 0 });
  fireEvent.pointerMove(img, { clientX: (from[0] + to[0]) / 2, clientY: (from[1] + to[1]) / 2, pointerId: 1 });
  fireEvent.pointerMove(img, { clientX: to[0], clientY: to[1], pointerId: 1 });
  fireEvent.pointerUp(img, { clientX: to[0], clientY: to[1], pointerId: 1, button: 0 });
}

/** The page image, once its URL has arrived (two requests on a busy machine can take a while). */
function findPage(name: string | RegExp) {
  return screen.findByRole('img', { name }, { timeout: 5000 });
}

function question(name: RegExp) {
  return screen.getByRole('button', { name });
}

describe('AnswerBoxesPanel', () => {
  it('asks for a submission first when there is nothing to draw on', async () => {
    setup({ boxes: [], sample: null });

    const panel = screen.getByRole('region', { name: 'Answer boxes' });
    expect(panel).toHaveTextContent('draw one box per question on a sample page');
    expect(await within(panel).findByText('Upload a submission first: the boxes are drawn on one of its pages.')).toBeInTheDocument();
    expect(within(panel).queryByRole('img')).not.toBeInTheDocument();
  });

  it('draws the selected question’s box by dragging on the page and saves it as fractions', async () => {
    const { user, updates, pages } = setup();
    const img = await findPage('Page 1 of 2 of the sample submission');
    expect(img).toHaveAttribute('src', 'https://blobs.test/s1/page-0.jpg?sig=x');
    expect(pages).toEqual([{ submissionId: 's1', page: 0 }]);
    placeImage(img);

    await user.click(question(/^2a\. Plot the line\./));
    expect(screen.getByText('Drag on the page to draw the box for question 2a.')).toBeInTheDocument();
    // From (10 %, 20 %) to (60 %, 50 %) of the 400 × 500 image, dragged up and left.
    drag(img, [340, 300], [140, 150]);

    expect(question(/^2a\./)).toHaveTextContent('Page 1 · 50% × 30%');
    expect(screen.getByTestId('answer-box-2a')).toHaveTextContent('2a');
    expect(screen.getByRole('spinbutton', { name: 'Left' })).toHaveValue(10);
    expect(screen.getByRole('spinbutton', { name: 'Top' })).toHaveValue(20);

    // Redrawing replaces the box.
    drag(img, [100, 50], [300, 300]);
    expect(question(/^2a\./)).toHaveTextContent('Page 1 · 50% × 50%');
    expect(screen.getAllByTestId(/^answer-box-/)).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Save answer boxes' }));
    await waitFor(() => expect(updates).toHaveLength(1));
    expect(updates[0]).toEqual({ assignmentId: 'a1', boxes: [{ path: [1, 0], page: 0, x: 0, y: 0, width: 0.5, height: 0.5 }] });
  });

  it('ignores a click that draws no real box', async () => {
    setup();
    const img = await findPage(/Page 1 of 2/);
    placeImage(img);

    drag(img, [200, 200], [201, 201]);

    expect(question(/^1\. Solve for x\./)).toHaveTextContent('No box yet');
    expect(screen.getByRole('button', { name: 'Save answer boxes' })).toBeDisabled();
  });

  it('draws on the page chosen in the page selector', async () => {
    const { user, updates, pages } = setup();
    await findPage(/Page 1 of 2/);

    await user.selectOptions(screen.getByRole('combobox', { name: 'Page' }), '2 of 2');
    const img = await findPage('Page 2 of 2 of the sample submission');
    expect(pages).toContainEqual({ submissionId: 's1', page: 1 });
    placeImage(img);
    drag(img, [100, 50], [500, 300]);

    expect(question(/^1\./)).toHaveTextContent('Page 2 · 100% × 50%');
    await user.click(screen.getByRole('button', { name: 'Save answer boxes' }));
    await waitFor(() => expect(updates).toHaveLength(1));
    expect(updates[0].boxes).toEqual([{ path: [0], page: 1, x: 0, y: 0, width: 1, height: 0.5 }]);
  });

  it('edits a box with the percent fields and refuses a box that leaves the page', async () => {
    const { user, updates } = setup({
      boxes: [{ path: [0], page: 0, x: 0.1, y: 0.2, width: 0.5, height: 0.25 }],
      sample: { submissionId: 's1', pageCount: 1 },
    });
    await findPage(/Page 1 of 1/);
    expect(question(/^1\./)).toHaveAttribute('aria-pressed', 'true');

    const width = screen.getByRole('spinbutton', { name: 'Width' });
    expect(width).toHaveValue(50);
    await user.clear(width);
    await user.paste('95');
    expect(screen.getByText('Enter a number from 1 to 90')).toBeInTheDocument();
    expect(question(/^1\./)).toHaveTextContent('Page 1 · 50% × 25%');

    await user.clear(width);
    await user.type(width, '30.5');
    expect(screen.queryByText(/Enter a number/)).not.toBeInTheDocument();
    await user.clear(screen.getByRole('spinbutton', { name: 'Top' }));
    await user.type(screen.getByRole('spinbutton', { name: 'Top' }), '40');
    expect(question(/^1\./)).toHaveTextContent('Page 1 · 30.5% × 25%');

    await user.click(screen.getByRole('button', { name: 'Save answer boxes' }));
    await waitFor(() => expect(updates).toHaveLength(1));
    expect(updates[0].boxes).toEqual([{ path: [0], page: 0, x: 0.1, y: 0.4, width: 0.305, height: 0.25 }]);
  });

  it('adds a box from the keyboard for a question that has none', async () => {
    const { user, updates } = setup();
    await findPage(/Page 1 of 2/);

    await user.click(question(/^2b\. Find the slope\./));
    await user.click(screen.getByRole('button', { name: 'Add a box on page 1' }));
    await user.clear(screen.getByRole('spinbutton', { name: 'Height' }));
    await user.type(screen.getByRole('spinbutton', { name: 'Height' }), '15');

    await user.click(screen.getByRole('button', { name: 'Save answer boxes' }));
    await waitFor(() => expect(updates).toHaveLength(1));
    expect(updates[0].boxes).toEqual([{ path: [1, 1], page: 0, x: 0.1, y: 0.1, width: 0.8, height: 0.15 }]);
  });

  it('saves every box, in question order, and says the answers are being cropped', async () => {
    const { user, updates } = setup({
      boxes: [
        { path: [1, 1], page: 1, x: 0.1, y: 0.5, width: 0.8, height: 0.3 },
        { path: [0], page: 0, x: 0.1, y: 0.1, width: 0.8, height: 0.3 },
        { path: [1, 0], page: 1, x: 0.1, y: 0.1, width: 0.8, height: 0.3 },
      ],
      sample: { submissionId: 's1', pageCount: 2 },
    });
    await findPage(/Page 1 of 2/);
    // Only the boxes of the page shown are drawn on it.
    expect(screen.getAllByTestId(/^answer-box-/).map((el) => el.textContent)).toEqual(['1']);

    await user.click(screen.getByRole('button', { name: 'Clear the box of question 2b' }));
    expect(question(/^2b\./)).toHaveTextContent('No box yet');
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save answer boxes' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Answer boxes saved. Cropping answers…');
    expect(updates).toEqual([
      {
        assignmentId: 'a1',
        boxes: [
          { path: [0], page: 0, x: 0.1, y: 0.1, width: 0.8, height: 0.3 },
          { path: [1, 0], page: 1, x: 0.1, y: 0.1, width: 0.8, height: 0.3 },
        ],
      },
    ]);
    expect(screen.queryByText('Unsaved changes')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save answer boxes' })).toBeDisabled();
  });

  it('shows the server’s message when it refuses the boxes, and keeps them', async () => {
    const { user } = setup({
      boxes: [{ path: [0], page: 0, x: 0.1, y: 0.1, width: 0.8, height: 0.3 }],
      sample: { submissionId: 's1', pageCount: 1 },
    });
    server.use(
      http.post('/api/v1/db/assignment/answer-boxes/update', () =>
        HttpResponse.json({ error: { code: 'invalid', message: 'Every question needs a box.' } }, { status: 400 }),
      ),
    );
    await findPage(/Page 1 of 1/);
    await user.click(screen.getByRole('button', { name: 'Clear the box of question 1' }));
    await user.click(screen.getByRole('button', { name: 'Save answer boxes' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Every question needs a box.');
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();
    expect(question(/^1\./)).toHaveTextContent('No box yet');
  });

  it.each([
    ['typed grade', { _id: 'a1', type: 'grade', isHandWritten: false }],
    ['handwritten rubric-feedback', { _id: 'a1', type: 'rubric-feedback', isHandWritten: true }],
    ['feedback', { _id: 'a1', type: 'feedback', isHandWritten: false }],
  ])('is not shown for a %s assignment', async (_kind, assignment) => {
    let asked = false;
    server.use(
      http.post('/api/v1/db/assignment/answer-boxes/get', () => {
        asked = true;
        return HttpResponse.json({ data: { boxes: [], sample: null } });
      }),
    );
    renderWithProviders(<AnswerBoxesPanel assignment={assignment} questions={QUESTIONS} />);

    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('region', { name: 'Answer boxes' })).not.toBeInTheDocument();
    expect(asked).toBe(false);
  });
});
