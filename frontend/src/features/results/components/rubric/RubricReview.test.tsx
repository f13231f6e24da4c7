import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { useEffect, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { server } from '../../../../testing/server';
import type { FunctionResult } from '../../api/types';
import { renderResultUi, resultFixture } from '../../testing/render';
import { RubricReview } from './RubricReview';

// Levels are listed best first (docs/api-grading.md). Thesis has no ranges: 3 levels score
// 3 − index (Clear 3, Vague 2, Missing 1), max 3. Evidence has ranges: Strong 5–10, Weak 0–4, max 10.
// The rubric's max is 3 + 10 = 13.
const FN = {
  _id: 'f1',
  rubric: {
    name: 'Essay rubric',
    criteria: [
      { criterionDescription: 'Thesis', levelDescriptions: ['Clear', 'Vague', 'Missing'], useRange: false },
      {
        criterionDescription: 'Evidence',
        levelDescriptions: ['Strong', 'Weak'],
        useRange: true,
        levelRanges: [
          { levelDescriptionsIndex: 0, min: 5, max: 10 },
          { levelDescriptionsIndex: 1, min: 0, max: 4 },
        ],
      },
    ],
  },
};

// Thesis at Vague: 3 − 1 = 2 (what the API stores); Evidence at Strong: 7 (in 5–10). Total 2 + 7 = 9.
const RESULT = resultFixture({
  criteriaLevels: [1, 0],
  criteriaPoints: [2, 7],
  criteriaFeedback: ['Say what you argue.', 'Good quotes.'],
  overallComments: 'Solid.',
  highlightedText: 'I think <criterion1 comment="Vague">schools are bad</criterion1>.',
  totalPoints: 9,
  maxPoints: 13,
});

/** Hands the results a page would pass in, one after another (as its query refetches). */
let refetch: (result: FunctionResult) => void = () => {};
function RefetchedReview({ first }: { first: FunctionResult }) {
  const [result, setResult] = useState(first);
  useEffect(() => {
    refetch = setResult;
  }, []);
  return <RubricReview result={result} fn={FN} text="" />;
}

const total = () => screen.getByRole('status');

describe('RubricReview', () => {
  it('shows each criterion with its level, points and feedback, and the total', () => {
    renderResultUi(<RubricReview result={RESULT} fn={FN} text="" />);

    expect(total()).toHaveTextContent('Total9 / 13');
    const thesis = screen.getByRole('region', { name: 'Thesis' });
    expect(within(thesis).getByRole('radio', { name: /^Level 2: Vague\s*\(2 pts\)$/ })).toBeChecked();
    expect(within(thesis).getByRole('radio', { name: /^Level 1: Clear\s*\(3 pts\)$/ })).not.toBeChecked();
    expect(within(thesis).getByRole('radio', { name: /^Level 3: Missing\s*\(1 pt\)$/ })).not.toBeChecked();
    expect(within(thesis).getByText('2 / 3 pts')).toBeInTheDocument();
    const evidence = screen.getByRole('region', { name: 'Evidence' });
    expect(within(evidence).getByRole('radio', { name: /^Level 1: Strong\s*\(5–10 pts\)$/ })).toBeChecked();
    expect(within(thesis).getByRole('textbox', { name: 'Feedback on Thesis' })).toHaveValue('Say what you argue.');
    expect(screen.getByRole('spinbutton', { name: 'Points for Evidence' })).toHaveValue(7);
    // The highlight names its criterion, and a colour key lists the criteria.
    expect(screen.getByRole('button', { name: /^Thesis: Vague — “/ })).toBeInTheDocument();
    const key = screen.getByRole('list', { name: 'Highlight colours' });
    expect(within(key).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Thesis', 'Evidence']);
  });

  it('updates the total when a level changes, and saves levels, points and feedback', async () => {
    const bodies: Record<string, unknown>[] = [];
    server.use(
      http.post('/api/v1/db/functionResult/update', async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        bodies.push(body);
        return HttpResponse.json({ data: { functionResult: { ...body, status: 'reviewed', totalPoints: 6, maxPoints: 13 } } });
      }),
    );
    const user = userEvent.setup();
    renderResultUi(<RubricReview result={RESULT} fn={FN} text="" />);

    // Thesis up to Clear: 3 − 0 = 3; total 3 + 7 = 10.
    await user.click(within(screen.getByRole('region', { name: 'Thesis' })).getByRole('radio', { name: /Level 1: Clear/ }));
    expect(total()).toHaveTextContent('Total10 / 13');

    // Evidence drops to "Weak": 7 points do not fit 0–4, so they become 4; total 3 + 4 = 7.
    await user.click(within(screen.getByRole('region', { name: 'Evidence' })).getByRole('radio', { name: /Level 2: Weak/ }));
    expect(screen.getByRole('spinbutton', { name: 'Points for Evidence' })).toHaveValue(4);
    expect(total()).toHaveTextContent('Total7 / 13');

    const points = screen.getByRole('spinbutton', { name: 'Points for Evidence' });
    await user.clear(points);
    await user.type(points, '9');
    expect(screen.getByText('Enter points between 0 and 4.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeDisabled();
    await user.clear(points);
    await user.type(points, '3');
    // 3 + 3 = 6.
    expect(total()).toHaveTextContent('Total6 / 13');

    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText('Feedback updated successfully')).toBeInTheDocument();
    // Changes save as the teacher goes (leaving a field saved the choices so far): the last save has them all.
    expect(bodies.at(-1)).toMatchObject({
      functionId: 'f1',
      submissionId: 's1',
      criteriaLevels: [0, 1],
      criteriaPoints: [3, 3],
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

    expect(total()).toHaveTextContent('Total9 / 13');
    const thesis = screen.getByRole('region', { name: 'Thesis' });
    expect(thesis).toHaveTextContent('Level 2: Vague');
    expect(within(thesis).getByText('2 / 3 pts')).toBeInTheDocument();
    expect(screen.getByText('Good quotes.')).toBeInTheDocument();
    expect(screen.getByText('Solid.')).toBeInTheDocument();
    expect(screen.queryByRole('radio')).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
  });

  it('keeps a teacher\'s unsaved choices when a refetch brings the same result back, and drops them for a newer one', async () => {
    const user = userEvent.setup();
    renderResultUi(<RefetchedReview first={RESULT} />);
    const thesis = () => screen.getByRole('region', { name: 'Thesis' });
    const save = () => screen.getByRole('button', { name: 'Save changes' });

    // Thesis up to Clear: 3 + 7 = 10.
    await user.click(within(thesis()).getByRole('radio', { name: /Level 1: Clear/ }));
    expect(save()).toBeEnabled();
    expect(total()).toHaveTextContent('Total10 / 13');

    // A refetch: a new object, same _id and updatedAt.
    act(() => refetch({ ...RESULT, criteriaLevels: [...RESULT.criteriaLevels], criteriaPoints: [...RESULT.criteriaPoints] }));
    expect(within(thesis()).getByRole('radio', { name: /Level 1: Clear/ })).toBeChecked();
    expect(total()).toHaveTextContent('Total10 / 13');
    expect(save()).toBeEnabled();

    // Saved elsewhere since: a newer updatedAt, so the draft starts again from it (2 + 7 = 9).
    act(() => refetch({ ...RESULT, updatedAt: '2026-03-01T10:05:00Z', overallComments: 'Solid. Checked again.' }));
    expect(within(thesis()).getByRole('radio', { name: /Level 2: Vague/ })).toBeChecked();
    expect(total()).toHaveTextContent('Total9 / 13');
    expect(screen.getByRole('textbox', { name: 'Overall comments' })).toHaveValue('Solid. Checked again.');
    expect(save()).toBeDisabled();
  });

  it('counts a criterion without ranges by its level, whatever points were stored', () => {
    // Stored under the old lowest-first rule: Vague as index 1. The API counts 3 − 1 = 2; 2 + 7 = 9.
    renderResultUi(<RubricReview result={{ ...RESULT, criteriaPoints: [1, 7] }} fn={FN} text="" />);

    expect(total()).toHaveTextContent('Total9 / 13');
    expect(screen.queryByText('Fix the points before saving.')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeDisabled();
  });
});
