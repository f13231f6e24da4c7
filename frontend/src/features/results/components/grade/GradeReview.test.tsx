import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AnswerNode } from '../../api/types';
import { resultFixture, renderResultUi } from '../../testing/render';
import { PARTS_ONLY, PARTS_ONLY_ANSWERS } from '../../testing/parts-only';
import { GradeReview } from './GradeReview';

const fn = {
  _id: 'fn1',
  questions: [{ questionText: 'Label the diagram.', criteria: [{ description: 'Names the heart', points: 2 }], subquestions: [] }],
};

function answer(urls: string[]): AnswerNode {
  return {
    answerBoxesCoordinates: { x: 0.1, y: 0.1, width: 0.5, height: 0.2, page: 1 },
    answerMedia: urls.map((_, i) => `answers/${i}.png`),
    signedAnswerMedia: urls,
    subanswers: [],
    grade: { points: 2, gradeAdjustment: 0, feedback: 'Well labelled.', criteria: [true] },
  };
}

describe('GradeReview', () => {
  it("shows a handwritten answer's picture beside its criteria", () => {
    renderResultUi(
      <GradeReview result={resultFixture({ answers: [answer(['https://blob.test/a.png?sig=1'])], totalPoints: 2, maxPoints: 2 })} fn={fn} text="" />,
    );
    const card = screen.getByRole('region', { name: 'Question 1' });
    expect(within(card).getByRole('img', { name: 'Answer to question 1' })).toHaveAttribute('src', 'https://blob.test/a.png?sig=1');
    expect(within(card).getByRole('checkbox', { name: /Names the heart/ })).toBeChecked();
    // No text was read from the pictures: no empty text panel.
    expect(screen.queryByRole('region', { name: /text/ })).not.toBeInTheDocument();
    expect(screen.getByText('Total 2 / 2')).toBeInTheDocument();
  });

  it('shows everything and changes nothing when read-only', () => {
    renderResultUi(<GradeReview result={resultFixture({ answers: [answer([])], totalPoints: 2, maxPoints: 2 })} fn={fn} text="My answer" readOnly />);
    expect(screen.getByRole('checkbox', { name: /Names the heart/ })).toBeDisabled();
    expect(screen.getByRole('textbox', { name: 'Feedback for question 1' })).toBeDisabled();
    expect(screen.getByRole('textbox', { name: 'Feedback for question 1' })).toHaveValue('Well labelled.');
    expect(screen.getByRole('region', { name: 'Submission text' })).toHaveTextContent('My answer');
  });

  it('caps an adjustment at the question\'s maximum and at 0, and says why', async () => {
    const user = userEvent.setup();
    const two = {
      _id: 'fn2',
      questions: [
        {
          questionText: 'Name two gases.',
          criteria: [
            { description: 'Oxygen', points: 3 },
            { description: 'Carbon dioxide', points: 3 },
          ],
          subquestions: [],
        },
      ],
    };
    const graded: AnswerNode = { ...answer([]), grade: { points: 3, gradeAdjustment: 0, feedback: '', criteria: [true, false] } };
    renderResultUi(<GradeReview result={resultFixture({ answers: [graded], totalPoints: 3, maxPoints: 6 })} fn={two} text="Oxygen." />);
    const field = screen.getByRole('spinbutton', { name: 'Grade adjustment for question 1' });

    await user.clear(field);
    await user.type(field, '5{Enter}');
    expect(field).toHaveValue(3);
    expect(screen.getByText('Capped at +3: question 1 is worth 6 points, and an adjustment cannot take it past that.')).toBeInTheDocument();
    expect(field).toHaveAccessibleDescription('Capped at +3: question 1 is worth 6 points, and an adjustment cannot take it past that.');

    await user.clear(field);
    await user.type(field, '-7{Enter}');
    expect(field).toHaveValue(-3);
    expect(screen.getByText('Capped at −3: an adjustment cannot take question 1 below 0.')).toBeInTheDocument();

    await user.clear(field);
    await user.type(field, '1');
    expect(screen.queryByText(/Capped at/)).not.toBeInTheDocument();
  });

  it('shows a question\'s score within 0 and its maximum', () => {
    const over: AnswerNode = { ...answer([]), grade: { points: 2, gradeAdjustment: 4, feedback: '', criteria: [true] } };
    renderResultUi(<GradeReview result={resultFixture({ answers: [over], totalPoints: 2, maxPoints: 2 })} fn={fn} text="x" />);
    expect(within(screen.getByRole('region', { name: 'Question 1' })).getByLabelText('2 of 2 points')).toHaveTextContent('2 / 2');
  });

  it('tells a question\'s own criteria from the question with its parts', () => {
    const nested = {
      _id: 'fn3',
      questions: [
        {
          questionText: 'Photosynthesis.',
          criteria: [{ description: 'Names the gas', points: 3 }],
          subquestions: [
            { questionText: 'Where?', criteria: [{ description: 'Leaves', points: 2 }], subquestions: [] },
          ],
        },
      ],
    };
    const part: AnswerNode = { ...answer([]), grade: { points: 0, gradeAdjustment: 1, feedback: '', criteria: [false] } };
    const whole: AnswerNode = { ...answer([]), subanswers: [part], grade: { points: 3, gradeAdjustment: 0, feedback: '', criteria: [true] } };
    renderResultUi(<GradeReview result={resultFixture({ answers: [whole], totalPoints: 4, maxPoints: 5 })} fn={nested} text="x" />);
    const card = screen.getByRole('region', { name: 'Question 1' });
    expect(within(card).getByLabelText('3 of 3 points for its own criteria')).toHaveTextContent('3 / 3');
    expect(within(card).getByText('With its parts: 4 / 5 (the score above is its own criteria\'s).')).toBeInTheDocument();
    // A part without parts of its own says nothing more.
    const partCard = screen.getByRole('region', { name: 'Question 1a' });
    expect(within(partCard).getByLabelText('1 of 2 points')).toBeInTheDocument();
    expect(within(partCard).queryByText(/with its parts/i)).not.toBeInTheDocument();
  });

  it("shows a question of parts only by its parts' subtotal, with nothing to tick or adjust of its own", () => {
    renderResultUi(<GradeReview result={resultFixture({ answers: PARTS_ONLY_ANSWERS, totalPoints: 5, maxPoints: 6 })} fn={PARTS_ONLY} text="x" />);

    const card = screen.getByRole('region', { name: 'Question 2' });
    expect(within(card).getByLabelText('3 of 4 points with its parts')).toHaveTextContent('3 / 4');
    expect(within(card).queryByText('0 / 0')).not.toBeInTheDocument();
    expect(within(card).getByText('With its parts: their criteria and adjustments are below.')).toBeInTheDocument();
    expect(within(card).queryByRole('spinbutton')).not.toBeInTheDocument();
    expect(within(card).queryByRole('group')).not.toBeInTheDocument();
    expect(within(card).queryByText('No criteria for this question.')).not.toBeInTheDocument();
    expect(within(card).getByRole('textbox', { name: 'Feedback for question 2' })).toHaveValue('Both parts tried.');
    // Its parts keep their criteria and adjustments.
    const part = screen.getByRole('region', { name: 'Question 2b' });
    expect(within(part).getByLabelText('3 of 3 points')).toBeInTheDocument();
    expect(within(part).getByRole('checkbox', { name: /Explains why/ })).toBeChecked();
    expect(within(part).getByRole('spinbutton', { name: 'Grade adjustment for question 2b' })).toBeInTheDocument();
    expect(screen.getByRole('spinbutton', { name: 'Grade adjustment for question 1' })).toBeInTheDocument();
  });

  it('says so when nothing is graded yet', () => {
    renderResultUi(<GradeReview result={resultFixture({ answers: null })} fn={fn} text="x" />);
    expect(screen.getByText('No answers have been graded yet.')).toBeInTheDocument();
    expect(screen.getByText('Total 0 / 2')).toBeInTheDocument();
  });
});
