import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { renderRoutes } from '../../testing/render-routes';
import { server } from '../../testing/server';
import { studentRoutesWithResults } from './StudentResultRoute';

const SUBMISSION = {
  _id: 's1',
  assignmentId: 'a1',
  name: 'essay.pdf',
  studentName: 'Sam Student',
  studentEmail: 'sam@school.org',
  status: 'ready',
  error: '',
  pageCount: 1,
  text: 'He went to there house <img src=x onerror=alert(1)>.',
  createdAt: '2026-03-01T10:00:00Z',
  updatedAt: '2026-03-01T10:00:00Z',
};

/** A student's tab with view token vt-1; the result is `annotating` for the first read, then annotated. */
function setup(type: string, result: Record<string, unknown>, fn: Record<string, unknown>) {
  sessionStorage.setItem('markwell.viewToken.s1', 'vt-1');
  let reads = 0;
  server.use(
    http.post('/api/v1/db/submission/get-view-only', () => HttpResponse.json({ data: { submission: SUBMISSION } })),
    http.post('/api/v1/db/assignment/get-view-only', () =>
      HttpResponse.json({ data: { assignment: { _id: 'a1', name: 'Persuasive essay', type, provideInstantFeedback: true } } }),
    ),
    http.post('/api/v1/db/functionResult/get-view-only', () => {
      reads += 1;
      const functionResult = reads === 1 ? { _id: 'r1', submission: 's1', status: 'annotating' } : { _id: 'r1', submission: 's1', ...result };
      return HttpResponse.json({ data: { functionResult } });
    }),
    http.post('/api/v1/db/function/get-view-only', () => HttpResponse.json({ data: { function: { _id: 'f1', ...fn } } })),
  );
  renderRoutes(studentRoutesWithResults, { initialEntries: ['/student/view-result/a1/s1'] });
}

afterEach(() => sessionStorage.clear());

describe('student result page with the results components', () => {
  it('waits while the work is annotated, then shows the highlights read-only', async () => {
    setup(
      'feedback',
      {
        status: 'annotated',
        highlightedText:
          'He went to <grammar comment="Use &quot;their&quot;">there</grammar> house &lt;img src=x onerror=alert(1)&gt;.',
        feedback: 'Check your homophones.',
      },
      { highlights: [{ key: 'grammar', color: 'purple-500', title: 'Grammar', description: 'd' }] },
    );

    expect(await screen.findByText('Your work is being graded…')).toBeInTheDocument();
    const feedback = await screen.findByRole('region', { name: 'Your feedback' }, { timeout: 8000 });
    expect(within(feedback).getByRole('button', { name: /^Grammar: Use "their" — “/ })).toHaveTextContent('there');
    expect(within(feedback).getByRole('region', { name: 'Submission with highlights' })).toHaveTextContent(
      'He went to there house <img src=x onerror=alert(1)>.',
    );
    expect(within(feedback).getByText('Check your homophones.')).toBeInTheDocument();
    expect(document.querySelector('img')).toBeNull();
    expect(within(feedback).queryByRole('button', { name: /Edit comment|Delete highlight|Save/ })).not.toBeInTheDocument();
    expect(within(feedback).queryByRole('textbox')).not.toBeInTheDocument();
  }, 20_000);

  it('shows a rubric result read-only with its total', async () => {
    setup(
      'rubric-feedback',
      // Levels best first, no ranges: level 1 (Vague) of 3 scores 3 − 1 = 2 (what the API stores); max 3.
      { status: 'graded', criteriaLevels: [1], criteriaPoints: [2], criteriaFeedback: ['Clearer, please.'], highlightedText: '' },
      { rubric: { name: 'R', criteria: [{ criterionDescription: 'Thesis', levelDescriptions: ['Clear', 'Vague', 'Missing'], useRange: false }] } },
    );

    const feedback = await screen.findByRole('region', { name: 'Your feedback' }, { timeout: 8000 });
    expect(within(feedback).getByRole('status')).toHaveTextContent('Total2 / 3');
    expect(within(feedback).getByRole('region', { name: 'Thesis' })).toHaveTextContent('Level 2: Vague');
    expect(within(feedback).getByText('Clearer, please.')).toBeInTheDocument();
    expect(within(feedback).getByText('Text not processed...')).toBeInTheDocument();
    expect(within(feedback).queryByRole('radio')).not.toBeInTheDocument();
  }, 20_000);

  it('shows a grade result in a layout of its own: points per criterion and feedback, no teacher controls', async () => {
    setup(
      'grade',
      {
        status: 'graded',
        totalPoints: 1,
        maxPoints: 2,
        answers: [{ answerBoxesCoordinates: null, answerMedia: [], subanswers: [], grade: { points: 1, gradeAdjustment: 0, feedback: 'One cause named.', criteria: [true, false] } }],
      },
      {
        questions: [
          {
            questionText: 'Explain the causes.',
            context: '',
            rubricId: null,
            criteria: [
              { description: 'Names a cause', points: 1 },
              { description: 'Uses dates', points: 1 },
            ],
            subquestions: [],
          },
        ],
      },
    );

    const feedback = await screen.findByRole('region', { name: 'Your feedback' }, { timeout: 8000 });
    expect(within(feedback).getByText('Your score').parentElement).toHaveTextContent('Your score1 / 2');
    expect(within(feedback).getByText(/One cause named\./)).toBeInTheDocument();
    const points = within(feedback).getByRole('list', { name: 'Points for question 1' });
    expect(within(points).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Names a cause+1 point (met)',
      'Uses dates0 of 1 (not met)',
    ]);
    // No disabled teacher controls: no checkboxes, no adjustment or feedback boxes.
    expect(within(feedback).queryByRole('checkbox')).not.toBeInTheDocument();
    expect(within(feedback).queryByRole('textbox')).not.toBeInTheDocument();
    expect(within(feedback).queryByRole('spinbutton')).not.toBeInTheDocument();
    expect(within(feedback).queryByText(/Adjustment/)).not.toBeInTheDocument();
    expect(within(feedback).getByRole('region', { name: 'Your work' })).toHaveTextContent('He went to there house');
  }, 20_000);
});
