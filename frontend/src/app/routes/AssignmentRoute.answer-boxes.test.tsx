import { act, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { server } from '../../testing/server';
import { renderApp } from '../../testing/test-utils';

const ID = 'b2222222-2222-4222-8222-222222222222';

function submission(id: string, status: string) {
  return {
    _id: id,
    assignmentId: ID,
    name: `${id}.pdf`,
    location: `assignments/${ID}/submissions/0000-${id}.pdf`,
    studentName: '',
    studentEmail: '',
    submissionRole: 'teacher',
    source: 'upload',
    status,
    error: '',
    preview: '',
    pageCount: status === 'ready' ? 2 : 0,
    isHandWritten: true,
    createdAt: '2026-03-01T10:00:00Z',
    updatedAt: '2026-03-01T10:00:00Z',
  };
}

/**
 * Serves one grade assignment with two questions (the second with two parts) whose one
 * submission takes each status of `steps` in turn, one per `assignment/get`. The answer boxes
 * name it as the sample once it is ready.
 */
function serve({ isHandWritten = true, type = 'grade', steps = ['ready'] } = {}) {
  let status = steps[0];
  let gets = 0;
  const boxRequests: unknown[] = [];
  server.use(
    http.post('/api/v1/db/assignment/history', () => HttpResponse.json({ data: { history: [] } })),
    http.post('/api/v1/db/assignment/get', () => {
      status = steps[Math.min(gets, steps.length - 1)];
      gets += 1;
      const submissions = [submission('s1', status)];
      return HttpResponse.json({
        data: {
          assignment: {
            _id: ID,
            name: 'Algebra quiz',
            type,
            isHandWritten,
            provideInstantFeedback: false,
            submissions: [{ _id: 's1' }],
          },
          functionResults: [],
          submissions,
        },
      });
    }),
    http.post('/api/v1/db/function/get', () =>
      HttpResponse.json({
        data: {
          function: {
            _id: 'f1',
            assignmentId: ID,
            type,
            questions: [
              { questionText: 'Solve for x.', context: '', rubricId: null, criteria: [], subquestions: [] },
              {
                questionText: 'Graphs',
                context: '',
                rubricId: null,
                criteria: [],
                subquestions: [
                  { questionText: 'Plot the line.', context: '', rubricId: null, criteria: [], subquestions: [] },
                  { questionText: 'Find the slope.', context: '', rubricId: null, criteria: [], subquestions: [] },
                ],
              },
            ],
          },
        },
      }),
    ),
    http.get('/api/v1/db/rubric/list', () => HttpResponse.json({ data: { rubrics: [] } })),
    http.post('/api/v1/db/assignment/answer-boxes/get', async ({ request }) => {
      boxRequests.push(await request.json());
      return HttpResponse.json({
        data: { boxes: [], sample: status === 'ready' ? { submissionId: 's1', pageCount: 2 } : null },
      });
    }),
    http.post('/api/v1/db/submission/page-image', () => HttpResponse.json({ data: { url: 'https://blobs.test/s1/0.jpg' } })),
  );
  return { boxRequests };
}

describe('assignment page with answer boxes', { timeout: 30_000 }, () => {
  it('lists every question of a handwritten grade assignment, labelled 1, 2, 2a, 2b', async () => {
    const { boxRequests } = serve();
    renderApp(`/assignment/${ID}`);

    const panel = await screen.findByRole('region', { name: 'Answer boxes' }, { timeout: 5000 });
    const list = await within(panel).findByRole('list', { name: 'Questions' }, { timeout: 5000 });
    expect(within(list).getAllByRole('button').map((b) => b.textContent)).toEqual([
      '1. Solve for x.No box yet',
      '2. GraphsNo box yet',
      '2a. Plot the line.No box yet',
      '2b. Find the slope.No box yet',
    ]);
    expect(await within(panel).findByRole('img', { name: 'Page 1 of 2 of the sample submission' }, { timeout: 5000 })).toBeInTheDocument();
    expect(boxRequests).toEqual([{ assignmentId: ID }]);
  });

  it.each([
    ['a typed grade assignment', { isHandWritten: false }],
    ['a handwritten rubric-feedback assignment', { type: 'rubric-feedback' }],
  ])('has no answer boxes on %s', async (_kind, options) => {
    const { boxRequests } = serve(options);
    renderApp(`/assignment/${ID}`);

    await screen.findByRole('heading', { name: 'Algebra quiz', level: 1 }, { timeout: 5000 });
    await screen.findByRole('region', { name: 'Student submission link' });
    expect(screen.queryByRole('region', { name: 'Answer boxes' })).not.toBeInTheDocument();
    expect(boxRequests).toEqual([]);
  });

  it('offers drawing as soon as the first submission is read', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { boxRequests } = serve({ steps: ['extracting', 'ready'] });
    renderApp(`/assignment/${ID}`);

    const panel = await screen.findByRole('region', { name: 'Answer boxes' }, { timeout: 5000 });
    expect(
      await within(panel).findByText('Upload a submission first: the boxes are drawn on one of its pages.', undefined, { timeout: 5000 }),
    ).toBeInTheDocument();

    await act(async () => {
      vi.advanceTimersByTime(2000);
    });

    expect(await within(panel).findByRole('img', { name: /Page 1 of 2/ }, { timeout: 5000 })).toBeInTheDocument();
    expect(boxRequests).toHaveLength(2);
  });
});
