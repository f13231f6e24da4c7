import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeGrading, gradedResult, reviewPath } from '../../../../app/routes/SubmissionReviewRoute.fake-backend';
import { renderApp } from '../../../../testing/test-utils';

/** A feedback (highlighter) result of `submissionId`, as the AI annotated it. */
function annotated(submissionId: string) {
  return gradedResult(submissionId, {
    status: 'annotated',
    answers: null,
    totalPoints: null,
    maxPoints: null,
    feedback: 'A good start.',
    highlightedText: 'He went to <grammar comment="Use their">there</grammar> house.',
  });
}

describe('editing a highlight comment on the review screen', { timeout: 30_000 }, () => {
  it('keeps the edited comment when the teacher tabs out and presses j, instead of bringing back the AI’s', async () => {
    const backend = fakeGrading({ type: 'feedback', results: { s1: annotated('s1'), s2: annotated('s2'), s3: annotated('s3') } });
    const user = userEvent.setup();
    renderApp(reviewPath('s1'));
    const feedback = await screen.findByRole('region', { name: 'Feedback' });
    expect(within(feedback).getByText('Changes save as you go')).toBeInTheDocument();

    await user.click(within(feedback).getByRole('button', { name: 'Edit comment on “there”' }));
    const field = within(feedback).getByRole('textbox', { name: 'Grammar comment' });
    await user.clear(field);
    await user.type(field, 'Their, not there');
    await user.tab();
    await user.keyboard('j');

    expect(await screen.findByRole('heading', { level: 1, name: 'ben.pdf' })).toBeInTheDocument();
    await waitFor(() => expect(backend.bodies('db/functionResult/update')).toHaveLength(1));
    expect(backend.bodies('db/functionResult/update')[0]).toMatchObject({
      submissionId: 's1',
      highlightedText: 'He went to <grammar comment="Their, not there">there</grammar> house.',
    });
    expect(backend.results.s1.highlightedText).toBe('He went to <grammar comment="Their, not there">there</grammar> house.');

    // Back on ann.pdf, the teacher's comment is the one shown.
    await user.keyboard('k');
    expect(await screen.findByRole('heading', { level: 1, name: 'ann.pdf' })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Feedback items' });
    expect(await within(list).findByText('Their, not there')).toBeInTheDocument();
    expect(within(list).queryByText('Use their')).not.toBeInTheDocument();
  });

  it("keeps the overall feedback another tab saved when this tab's comment is saved after it", async () => {
    const backend = fakeGrading({ type: 'feedback', results: { s1: annotated('s1'), s2: annotated('s2'), s3: annotated('s3') } });
    const user = userEvent.setup();
    renderApp(reviewPath('s2'));
    const feedback = await screen.findByRole('region', { name: 'Feedback' });

    // Another tab saves new overall feedback; this one, showing the older result, edits a comment.
    backend.saveElsewhere('s2', (r) => {
      r.feedback = 'Overall, from the other tab.';
    });
    await user.click(within(feedback).getByRole('button', { name: 'Edit comment on “there”' }));
    const field = within(feedback).getByRole('textbox', { name: 'Grammar comment' });
    await user.clear(field);
    await user.type(field, 'Their, not there{Enter}');

    await waitFor(() => expect(backend.results.s2.highlightedText).toBe('He went to <grammar comment="Their, not there">there</grammar> house.'));
    expect(backend.results.s2.feedback).toBe('Overall, from the other tab.');
    expect(backend.bodies('db/functionResult/update')[0].updatedAt).toBe('2026-03-02T10:00:00Z');
    expect(await screen.findByText('Saved')).toBeInTheDocument();
  });
});
