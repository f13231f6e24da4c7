import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '../../../../testing/server';
import { renderResultUi, resultFixture } from '../../lib/testing';
import { RubricReview } from './RubricReview';

const FN = {
  _id: 'f1',
  rubric: {
    name: 'Essay rubric',
    criteria: [
      { criterionDescription: 'Thesis', levelDescriptions: ['Missing', 'Vague', 'Clear'], useRange: false },
      {
        criterionDescription: 'Evidence',
        levelDescriptions: ['Weak', 'Strong'],
        useRange: true,
        levelRanges: [
          { levelDescriptionsIndex: 0, min: 0, max: 4 },
          { levelDescriptionsIndex: 1, min: 5, max: 10 },
        ],
      },
    ],
  },
};

const RESULT = resultFixture({
  criteriaLevels: [1, 1],
  criteriaPoints: [1, 7],
  criteriaFeedback: ['Say what you argue.', 'Good quotes.'],
  overallComments: 'Solid.',
  highlightedText: 'I think <criterion1 comment="Vague">schools are bad</criterion1>.',
  totalPoints: 8,
  maxPoints: 12,
});

const total = () => screen.getByRole('status');

describe('RubricReview', () => {
  it('shows each criterion with its level, points and feedback, and the total', () => {
    renderResultUi(<RubricReview result={RESULT} fn={FN} text="" />);

    expect(total()).toHaveTextContent('Total8 / 12');
    const thesis = screen.getByRole('region', { name: 'Thesis' });
    expect(within(thesis).getByRole('radio', { name: /Level 2: Vague/ })).toBeChecked();
    expect(within(thesis).getByRole('textbox', { name: 'Feedback on Thesis' })).toHaveValue('Say what you argue.');
    expect(screen.getByRole('spinbutton', { name: 'Points for Evidence' })).toHaveValue(7);
    expect(screen.getByRole('button', { name: 'Criterion 1: Vague' })).toBeInTheDocument();
  });

  it('updates the total when a level changes, and saves levels, points and feedback', async () => {
    const bodies: Record<string, unknown>[] = [];
    server.use(
      http.post('/api/v1/db/functionResult/update', async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        bodies.push(body);
        return HttpResponse.json({ data: { functionResult: { ...body, status: 'reviewed', totalPoints: 7, maxPoints: 12 } } });
      }),
    );
    const user = userEvent.setup();
    renderResultUi(<RubricReview result={RESULT} fn={FN} text="" />);

    await user.click(within(screen.getByRole('region', { name: 'Thesis' })).getByRole('radio', { name: /Level 3: Clear/ }));
    expect(total()).toHaveTextContent('Total9 / 12');

    // Evidence drops to "Weak": 7 points do not fit 0–4, so they become 4.
    await user.click(within(screen.getByRole('region', { name: 'Evidence' })).getByRole('radio', { name: /Level 1: Weak/ }));
    expect(screen.getByRole('spinbutton', { name: 'Points for Evidence' })).toHaveValue(4);
    expect(total()).toHaveTextContent('Total6 / 12');

    const points = screen.getByRole('spinbutton', { name: 'Points for Evidence' });
    await user.clear(points);
    await user.type(points, '9');
    expect(screen.getByText('Enter points between 0 and 4.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeDisabled();
    await user.clear(points);
    await user.type(points, '3');
    expect(total()).toHaveTextContent('Total5 / 12');

    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText('Feedback updated successfully')).toBeInTheDocument();
    expect(bodies[0]).toMatchObject({
      functionId: 'f1',
      submissionId: 's1',
      criteriaLevels: [2, 0],
      criteriaPoints: [2, 3],
      criteriaFeedback: ['Say what you argue.', 'Good quotes.'],
      overallComments: 'Solid.',
    });
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeDisabled();
  });

  it('says when saving fails', async () => {
    server.use(http.post('/api/v1/db/functionResult/update', () => HttpResponse.json({}, { status: 500 })));
    const user = userEvent.setup();
    renderResultUi(<RubricReview result={RESULT} fn={FN} text="" />);

    await user.type(screen.getByRole('textbox', { name: 'Overall comments' }), ' More.');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Error updating feedback')).toBeInTheDocument();
  });

  it('shows the result read-only', () => {
    renderResultUi(<RubricReview result={RESULT} fn={FN} text="" readOnly />);

    expect(total()).toHaveTextContent('Total8 / 12');
    expect(within(screen.getByRole('region', { name: 'Thesis' })).getByText('Level 2')).toBeInTheDocument();
    expect(screen.getByText('Good quotes.')).toBeInTheDocument();
    expect(screen.getByText('Solid.')).toBeInTheDocument();
    expect(screen.queryByRole('radio')).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
  });
});
