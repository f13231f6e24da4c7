import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { fakeGrading, reviewPath } from '../../../../app/routes/SubmissionReviewRoute.fake-backend';
import { server } from '../../../../testing/server';
import { renderApp } from '../../../../testing/test-utils';

const TOGGLE = '/api/v1/db/gradeFunction/toggleCriterion';

async function openReview() {
  const view = renderApp(reviewPath('s1'));
  await screen.findByRole('region', { name: 'Answers' });
  return view;
}

function answer(label: string) {
  return screen.getByRole('region', { name: `Question ${label}` });
}

/** The browser's beforeunload as a tab is closed or reloaded: defaultPrevented when the page asks first. */
function closeTab() {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event;
}

describe('a criterion ticked on a grade result shows in the save status', { timeout: 30_000 }, () => {
  it('says "Saving…" until the server has the tick, and "Saved" only then', async () => {
    const backend = fakeGrading();
    let answer_!: () => void;
    const held = new Promise<void>((resolve) => (answer_ = resolve));
    // The tick is held on its way (a slow or offline network), then reaches the fake backend.
    server.use(http.post(TOGGLE, async () => void (await held)));
    const user = userEvent.setup();
    await openReview();

    await user.click(within(answer('1')).getByRole('checkbox', { name: /Uses evidence/ }));

    expect(within(answer('1')).getByRole('checkbox', { name: /Uses evidence/ })).toBeChecked();
    expect(screen.getByText('Saving…')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.getByText('Saving…')).toBeInTheDocument();
    expect(screen.queryByText('Saved')).not.toBeInTheDocument();
    // Closing the tab now would lose the tick: the browser asks first.
    expect(closeTab().defaultPrevented).toBe(true);

    answer_();
    expect(await screen.findByText('Saved')).toBeInTheDocument();
    expect(closeTab().defaultPrevented).toBe(false);
    expect(backend.bodies('db/gradeFunction/toggleCriterion')).toHaveLength(1);
    expect((backend.results.s1.answers as { grade: { criteria: boolean[] } }[])[0].grade.criteria).toEqual([true, true]);
  });

  it('says a failed tick is not saved, offers Retry, and Retry saves it', async () => {
    const backend = fakeGrading();
    // The first try fails (the server or the network), the next reaches the fake backend.
    server.use(http.post(TOGGLE, () => HttpResponse.json({ error: { code: 'internal', message: '' } }, { status: 500 }), { once: true }));
    const user = userEvent.setup();
    await openReview();

    await user.click(within(answer('2')).getByRole('checkbox', { name: /Mentions alliances/ }));

    expect(await screen.findByText('Your changes are not saved.')).toBeInTheDocument();
    expect(screen.queryByText('Saved')).not.toBeInTheDocument();
    // Taken back on screen: the box shows what the server has.
    await waitFor(() => expect(within(answer('2')).getByRole('checkbox', { name: /Mentions alliances/ })).toBeChecked());
    expect(backend.bodies('db/gradeFunction/toggleCriterion')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Retry' }));

    expect(await screen.findByText('Saved')).toBeInTheDocument();
    expect(within(answer('2')).getByRole('checkbox', { name: /Mentions alliances/ })).not.toBeChecked();
    expect(backend.bodies('db/gradeFunction/toggleCriterion')).toEqual([
      { gradeFunctionId: 'fr-s1', questionIndexPath: [1], criterionIndex: 0, questionsCriterion: { description: 'Mentions alliances', points: 2 } },
    ]);
    expect((backend.results.s1.answers as { grade: { criteria: boolean[] } }[])[1].grade.criteria).toEqual([false]);
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });
});
