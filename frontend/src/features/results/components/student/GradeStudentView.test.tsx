import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderResultUi, resultFixture } from '../../testing/render';
import { PARTS_ONLY, PARTS_ONLY_ANSWERS } from '../../testing/parts-only';
import { GradeStudentView } from './GradeStudentView';

describe('GradeStudentView', () => {
  it("shows a question of parts only by its parts' subtotal, not 0 / 0", () => {
    renderResultUi(<GradeStudentView result={resultFixture({ answers: PARTS_ONLY_ANSWERS, totalPoints: 5, maxPoints: 6 })} fn={PARTS_ONLY} text="My answers." />);

    expect(screen.getByText('Your score').parentElement).toHaveTextContent('Your score5 / 6');
    const question = screen.getByRole('region', { name: 'Question 2' });
    expect(within(question).getByLabelText('3 of 4 points with its parts')).toHaveTextContent('3 / 4 points');
    expect(within(question).queryByText(/0 \/ 0/)).not.toBeInTheDocument();
    expect(within(question).getByText('With its parts below.')).toBeInTheDocument();
    expect(within(question).getByText('Both parts tried.')).toBeInTheDocument();
    // Its parts show their own points per criterion, as before.
    expect(within(screen.getByRole('region', { name: 'Question 2b' })).getByRole('list', { name: 'Points for question 2b' })).toHaveTextContent(
      'Explains why+3 points (met)',
    );
    expect(within(screen.getByRole('region', { name: 'Question 1' })).getByText('2 / 2 points')).toBeInTheDocument();
  });
});
