import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../testing/test-utils';
import { fakeGrading, reviewPath } from './SubmissionReviewRoute.fake-backend';

/** "Changes save as you go" on a grade result: typed changes reach the server without leaving the field. */

type Saved = { answers: { grade: { feedback: string; gradeAdjustment: number } }[]; submissionId: string; feedback: string };

async function openReview(submissionId = 's1') {
  const view = renderApp(reviewPath(submissionId));
  await screen.findByRole('region', { name: 'Answers' });
  return view;
}

const feedbackOf = (label: string) => within(screen.getByRole('region', { name: `Question ${label}` })).getByRole('textbox', { name: `Feedback for question ${label}` });

describe('saving typed changes as the teacher goes', { timeout: 30_000 }, () => {
  it('saves typed feedback once the teacher stops typing, in one update, and says so', async () => {
    const backend = fakeGrading();
    const user = userEvent.setup();
    await openReview();

    await user.type(feedbackOf('1'), 'EDIT-D');
    // Still in the field, typing just stopped: "Saving…", and nothing sent per keystroke.
    expect(screen.getByText('Saving…')).toBeInTheDocument();
    expect(backend.bodies('db/functionResult/update')).toEqual([]);

    await waitFor(() => expect(backend.bodies('db/functionResult/update')).toHaveLength(1), { timeout: 3000 });
    expect(await screen.findByText('Saved')).toBeInTheDocument();
    const [saved] = backend.bodies('db/functionResult/update') as Saved[];
    expect(saved.answers[0].grade.feedback).toBe('EDIT-D');
    expect(saved.submissionId).toBe('s1');
    expect(feedbackOf('1')).toHaveFocus();
    expect(feedbackOf('1')).toHaveValue('EDIT-D');
    // Nothing more once saved.
    await new Promise((r) => setTimeout(r, 1000));
    expect(backend.bodies('db/functionResult/update')).toHaveLength(1);
    expect(backend.results.s1.status).toBe('reviewed');
  });

  it('saves an adjustment typed without Enter or Tab', async () => {
    const backend = fakeGrading();
    const user = userEvent.setup();
    await openReview();

    const adjustment = screen.getByRole('spinbutton', { name: 'Grade adjustment for question 2' });
    await user.clear(adjustment);
    await user.type(adjustment, '-1');

    await waitFor(() => expect(backend.bodies('db/functionResult/update')).toHaveLength(1), { timeout: 3000 });
    expect((backend.bodies('db/functionResult/update')[0] as Saved).answers[1].grade.gradeAdjustment).toBe(-1);
    expect(adjustment).toHaveFocus();
  });

  it('saves what is pending when the teacher moves to another submission before the pause', async () => {
    const backend = fakeGrading();
    const user = userEvent.setup();
    const { router } = await openReview();

    await user.type(feedbackOf('1'), 'EDIT-D');
    // The Back button or j: a navigation while the field still has the focus.
    await act(() => router.navigate(reviewPath('s2')));
    expect(await screen.findByRole('heading', { level: 1, name: 'ben.pdf' })).toBeInTheDocument();

    await waitFor(() => expect(backend.bodies('db/functionResult/update')).toHaveLength(1));
    const [saved] = backend.bodies('db/functionResult/update') as Saved[];
    expect(saved.submissionId).toBe('s1');
    expect(saved.answers[0].grade.feedback).toBe('EDIT-D');
    expect((backend.results.s1.answers as Saved['answers'])[0].grade.feedback).toBe('EDIT-D');
  });

  it('saves what is pending at once when the page is hidden or left', async () => {
    const backend = fakeGrading();
    const user = userEvent.setup();
    await openReview();

    await user.type(screen.getByRole('textbox', { name: 'Overall feedback' }), ' EDIT-D');
    window.dispatchEvent(new Event('pagehide'));

    // Sent now, well before the pause would have sent it.
    await waitFor(() => expect(backend.bodies('db/functionResult/update')).toHaveLength(1), { timeout: 400 });
    expect((backend.bodies('db/functionResult/update')[0] as Saved).feedback).toBe('A clear answer. EDIT-D');
  });

  it('keeps the change and offers Retry when saving fails', async () => {
    const backend = fakeGrading({ failing: ['db/functionResult/update'] });
    const user = userEvent.setup();
    await openReview();

    await user.type(feedbackOf('1'), 'EDIT-D');
    await user.tab();

    expect(await screen.findByText('Your changes are not saved.')).toBeInTheDocument();
    expect(feedbackOf('1')).toHaveValue('EDIT-D');
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(backend.bodies('db/functionResult/update')).toHaveLength(2));
    expect((backend.bodies('db/functionResult/update')[1] as Saved).answers[0].grade.feedback).toBe('EDIT-D');
  });

  it("keeps another tab's saved changes: an edit made from the older result is made again from the new one", async () => {
    const backend = fakeGrading();
    const user = userEvent.setup();
    await openReview('s2');

    // Another tab, opened at the same time, saves a comment on question 2 and ticks question 1's
    // second criterion (1 point).
    backend.saveElsewhere('s2', (r) => {
      const answers = r.answers as { grade: { feedback: string; criteria: boolean[]; points: number } }[];
      answers[1].grade.feedback = 'From the other tab';
      answers[0].grade.criteria[1] = true;
      answers[0].grade.points += 1;
      r.totalPoints = 5;
    });
    // This tab, still showing the older result, saves its own comment on question 1.
    await user.type(feedbackOf('1'), 'From this tab');

    await waitFor(() => expect((backend.results.s2.answers as { grade: { feedback: string } }[])[0].grade.feedback).toBe('From this tab'), {
      timeout: 3000,
    });
    expect(await screen.findByText('Saved')).toBeInTheDocument();
    // The first try, made from the older result, was refused; the next from the result as the
    // other tab left it.
    const sent = backend.bodies('db/functionResult/update');
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(sent[0].updatedAt).toBe('2026-03-02T10:00:00Z');
    const answers = backend.results.s2.answers as { grade: { feedback: string; criteria: boolean[] } }[];
    expect(answers[0].grade.feedback).toBe('From this tab');
    expect(answers[1].grade.feedback).toBe('From the other tab');
    expect(answers[0].grade.criteria).toEqual([true, true]);
    // And this tab now shows both.
    await waitFor(() => expect(feedbackOf('2')).toHaveValue('From the other tab'));
    expect(feedbackOf('1')).toHaveValue('From this tab');
    expect(screen.queryByText('Your changes are not saved.')).not.toBeInTheDocument();
  });
});
