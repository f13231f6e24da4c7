import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '../../../../testing/server';
import type { AnswerNode } from '../../api/types';
import { renderResultUi, resultFixture } from '../../testing/render';
import { ClassSummaryPanel } from './ClassSummaryPanel';

const FN = {
  _id: 'f1',
  questions: [
    {
      questionText: 'Explain the causes.',
      criteria: [
        { description: 'Names two causes', points: 2 },
        { description: 'Uses dates', points: 1 },
      ],
    },
  ],
};

function answers(criteria: boolean[]): AnswerNode[] {
  return [{ answerBoxesCoordinates: null, answerMedia: [], subanswers: [], grade: { points: 0, gradeAdjustment: 0, feedback: '', criteria } }];
}

const RESULTS = [
  resultFixture({ _id: 'r1', totalPoints: 3, maxPoints: 3, answers: answers([true, true]) }),
  resultFixture({ _id: 'r2', totalPoints: 2, maxPoints: 3, answers: answers([true, false]) }),
  resultFixture({ _id: 'r3', totalPoints: 2, maxPoints: 3, answers: answers([true, false]) }),
  resultFixture({ _id: 'r4', totalPoints: 1, maxPoints: 3, answers: answers([false, true]) }),
  resultFixture({ _id: 'r5', status: 'grading', totalPoints: null, maxPoints: null, answers: null }),
];

const SUMMARY = {
  met: ['Most named two causes'],
  missed: ['Few used dates'],
  commonMistakes: ['Confusing alliances with treaties'],
  nextLesson: 'A timeline lesson.',
  generatedAt: '2026-03-01T10:00:00Z',
};

function renderPanel(summary: typeof SUMMARY | null = null) {
  return renderResultUi(
    <ClassSummaryPanel assignmentId="a1" assignmentQueryKey={['assignments', 'a1']} type="grade" fn={FN} results={RESULTS} summary={summary} />,
  );
}

describe('ClassSummaryPanel', () => {
  it('charts the points and each criterion’s success rate from the finished results', () => {
    renderPanel();

    const chart = screen.getByRole('list', { name: 'Points distribution' });
    expect(within(chart).getAllByRole('listitem').map((bar) => bar.getAttribute('aria-label'))).toEqual([
      '0 points: 0 submissions',
      '1 points: 1 submission',
      '2 points: 2 submissions',
      '3 points: 1 submission',
    ]);
    expect(screen.getByText('4 graded submissions · average 2 / 3 points')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Q1: Names two causes: met by 75%, average 1.5 of 2 points' })).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Q1: Uses dates: met by 50%, average 0.5 of 1 point' })).toBeInTheDocument();
  });

  it('names a third-level question as the question list and review screen do: 1a i', () => {
    const fn = {
      _id: 'f2',
      questions: [
        {
          questionText: 'How do plants breathe?',
          criteria: [],
          subquestions: [
            {
              questionText: 'Where does air get in?',
              criteria: [],
              subquestions: [{ questionText: 'Through which pores?', criteria: [{ description: 'Through the stomata', points: 1 }] }],
            },
          ],
        },
      ],
    };
    const node = (criteria: boolean[], subanswers: AnswerNode[] = []): AnswerNode => ({
      answerBoxesCoordinates: null,
      answerMedia: [],
      subanswers,
      grade: { points: 0, gradeAdjustment: 0, feedback: '', criteria },
    });
    const nested = (met: boolean): AnswerNode[] => [node([], [node([], [node([met])])])];
    renderResultUi(
      <ClassSummaryPanel
        assignmentId="a1"
        assignmentQueryKey={['assignments', 'a1']}
        type="grade"
        fn={fn}
        results={[
          resultFixture({ _id: 'r1', totalPoints: 1, maxPoints: 1, answers: nested(true) }),
          resultFixture({ _id: 'r2', totalPoints: 0, maxPoints: 1, answers: nested(false) }),
        ]}
        summary={null}
      />,
    );

    expect(screen.getByText('Q1a i: Through the stomata')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Q1a i: Through the stomata: met by 50%, average 0.5 of 1 point' })).toBeInTheDocument();
  });

  it('generates a summary from the breakdown and shows it', async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post('/api/v1/ai-assist/generate-summary', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ data: { classSummary: SUMMARY } });
      }),
    );
    const user = userEvent.setup();
    renderPanel();

    await user.click(screen.getByRole('button', { name: 'Generate summary' }));

    expect(await screen.findByText('Most named two causes')).toBeInTheDocument();
    expect(screen.getByText('Few used dates')).toBeInTheDocument();
    expect(screen.getByText('Confusing alliances with treaties')).toBeInTheDocument();
    expect(screen.getByText('A timeline lesson.')).toBeInTheDocument();
    expect(bodies).toEqual([
      {
        assignmentId: 'a1',
        criteriaBreakdown: [
          { label: 'Q1: Names two causes', successRate: 0.75, averagePoints: 1.5, maxPoints: 2 },
          { label: 'Q1: Uses dates', successRate: 0.5, averagePoints: 0.5, maxPoints: 1 },
        ],
      },
    ]);
    expect(screen.getByRole('button', { name: 'Generate again' })).toBeInTheDocument();
  });

  it("says 'Failed to generate summary.' when it fails", async () => {
    server.use(http.post('/api/v1/ai-assist/generate-summary', () => HttpResponse.json({ error: { code: 'internal', message: 'x' } }, { status: 502 })));
    const user = userEvent.setup();
    renderPanel();

    await user.click(screen.getByRole('button', { name: 'Generate summary' }));

    expect(await screen.findByText('Failed to generate summary.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Generate summary' })).toBeEnabled();
  });

  it('shows the stored summary, and waits for graded work before offering one', () => {
    renderPanel(SUMMARY);
    expect(screen.getByText('A timeline lesson.')).toBeInTheDocument();
  });

  it('offers no summary before anything is graded', () => {
    renderResultUi(
      <ClassSummaryPanel assignmentId="a1" assignmentQueryKey={['a']} type="grade" fn={FN} results={[RESULTS[4]]} summary={null} />,
    );
    expect(screen.getByText('No graded submissions yet. Grade the class to see how it did.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Generate summary' })).toBeDisabled();
  });
});
