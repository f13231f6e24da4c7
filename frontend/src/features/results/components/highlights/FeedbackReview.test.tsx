import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '../../../../testing/server';
import { renderResultUi, resultFixture } from '../../testing/render';
import { FeedbackReview } from './FeedbackReview';

const FN = {
  _id: 'f1',
  highlights: [
    { key: 'grammar', color: 'purple-500', title: 'Grammar' },
    { key: 'spelling', color: 'orange-500', title: 'Spelling' },
  ],
};

const RESULT = resultFixture({
  status: 'annotated',
  feedback: 'A good start.',
  highlightedText:
    'He went to <grammar comment="Use their">there</grammar> house &amp; <spelling comment="Spelled recieve">recieved</spelling> a gift.',
  droppedHighlights: 2,
});

/** `functionResult/update` answering with the saved result, or with `status` when it fails. Returns the bodies sent. */
function serveUpdate(status = 200) {
  const bodies: Record<string, unknown>[] = [];
  server.use(
    http.post('/api/v1/db/functionResult/update', async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      bodies.push(body);
      if (status !== 200) return HttpResponse.json({ error: { code: 'internal', message: 'Something went wrong' } }, { status });
      return HttpResponse.json({ data: { functionResult: { ...body, status: 'reviewed' } } });
    }),
  );
  return bodies;
}

describe('FeedbackReview', () => {
  it('lists the feedback items beside the highlighted text', () => {
    renderResultUi(<FeedbackReview result={RESULT} fn={FN} text="" />);

    const list = screen.getByRole('list', { name: 'Feedback items' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Grammar');
    expect(items[0]).toHaveTextContent('Use their');
    expect(items[0]).toHaveTextContent('“there”');
    expect(items[1]).toHaveTextContent('Spelling');
    expect(screen.getByRole('button', { name: /^Spelling: Spelled recieve — “/ })).toBeInTheDocument();
    expect(screen.getByText(/2 highlights from the AI were left out/)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Overall feedback' })).toHaveValue('A good start.');
  });

  it("saves an edited comment with functionResult/update and says so", async () => {
    const bodies = serveUpdate();
    const user = userEvent.setup();
    let changed = 0;
    renderResultUi(<FeedbackReview result={RESULT} fn={FN} text="" onChanged={() => (changed += 1)} />);

    await user.click(screen.getByRole('button', { name: 'Edit comment on “there”' }));
    const field = screen.getByRole('textbox', { name: 'Grammar comment' });
    await user.clear(field);
    await user.type(field, 'Say "their"');
    await user.click(screen.getByRole('button', { name: 'Save comment' }));

    expect(await screen.findByText('Feedback updated successfully')).toBeInTheDocument();
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toMatchObject({
      _id: 'r1',
      functionId: 'f1',
      submissionId: 's1',
      feedback: 'A good start.',
      highlightedText:
        'He went to <grammar comment="Say &quot;their&quot;">there</grammar> house &amp; <spelling comment="Spelled recieve">recieved</spelling> a gift.',
    });
    expect(bodies[0]).not.toHaveProperty('status');
    expect(bodies[0]).not.toHaveProperty('droppedHighlights');
    // The new comment shows at once, in the list and on the passage.
    expect(within(screen.getByRole('list', { name: 'Feedback items' })).getByText('Say "their"')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Grammar: Say "their" — “/ })).toBeInTheDocument();
    expect(changed).toBe(1);
  });

  describe('a comment being edited saves as the teacher goes', () => {
    const EDITED =
      'He went to <grammar comment="Their, not there">there</grammar> house &amp; <spelling comment="Spelled recieve">recieved</spelling> a gift.';

    async function editComment(user: ReturnType<typeof userEvent.setup>, text: string) {
      await user.click(screen.getByRole('button', { name: 'Edit comment on “there”' }));
      const field = screen.getByRole('textbox', { name: 'Grammar comment' });
      await user.clear(field);
      await user.type(field, text);
      return field;
    }

    it('saves it once typing stops, without "Save comment", and the header says so', async () => {
      const bodies = serveUpdate();
      const user = userEvent.setup();
      renderResultUi(<FeedbackReview result={RESULT} fn={FN} text="" />);
      expect(screen.getByText('Changes save as you go')).toBeInTheDocument();

      const field = await editComment(user, 'Their, not there');
      expect(screen.getByText('Saving…')).toBeInTheDocument();
      await waitFor(() => expect(bodies).toHaveLength(1), { timeout: 3000 });
      expect(bodies[0].highlightedText).toBe(EDITED);
      expect(await screen.findByText('Saved')).toBeInTheDocument();
      // Still typing: the field keeps the focus and what was typed.
      expect(field).toHaveFocus();
      expect(field).toHaveValue('Their, not there');
      expect(screen.getByRole('button', { name: /^Grammar: Their, not there — “/ })).toBeInTheDocument();
    });

    it('saves it at once when the field is left with Tab, and keeps showing it', async () => {
      const bodies = serveUpdate();
      const user = userEvent.setup();
      renderResultUi(<FeedbackReview result={RESULT} fn={FN} text="" />);

      await editComment(user, 'Their, not there');
      await user.tab();

      // Sent now, well before the pause would have sent it.
      await waitFor(() => expect(bodies).toHaveLength(1), { timeout: 400 });
      expect(bodies[0].highlightedText).toBe(EDITED);
      expect(await screen.findByText('Saved')).toBeInTheDocument();
      expect(screen.getByRole('textbox', { name: 'Grammar comment' })).toHaveValue('Their, not there');
      expect(screen.queryByText('Use their')).not.toBeInTheDocument();
    });

    it('saves it when Enter is pressed and shows the new comment in the list', async () => {
      const bodies = serveUpdate();
      const user = userEvent.setup();
      renderResultUi(<FeedbackReview result={RESULT} fn={FN} text="" />);

      await editComment(user, 'Their, not there{Enter}');

      await waitFor(() => expect(bodies).toHaveLength(1), { timeout: 400 });
      expect(bodies[0].highlightedText).toBe(EDITED);
      expect(screen.queryByRole('textbox', { name: 'Grammar comment' })).not.toBeInTheDocument();
      const list = screen.getByRole('list', { name: 'Feedback items' });
      expect(within(list).getByText('Their, not there')).toBeInTheDocument();
      expect(within(list).queryByText('Use their')).not.toBeInTheDocument();
      expect(await screen.findByText('Saved')).toBeInTheDocument();
    });

    it('closes the box with Escape, back to the comment as it was, and the focus goes back to the pencil', async () => {
      const bodies = serveUpdate();
      const user = userEvent.setup();
      renderResultUi(<FeedbackReview result={RESULT} fn={FN} text="" />);

      await user.click(screen.getByRole('button', { name: 'Edit comment on “there”' }));
      await user.type(screen.getByRole('textbox', { name: 'Grammar comment' }), ' please');
      await user.keyboard('{Escape}');

      expect(screen.queryByRole('textbox', { name: 'Grammar comment' })).not.toBeInTheDocument();
      const list = screen.getByRole('list', { name: 'Feedback items' });
      expect(within(list).getByText('Use their')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Edit comment on “there”' })).toHaveFocus();
      await new Promise((resolve) => setTimeout(resolve, 1200)); // past the typing pause
      expect(bodies).toHaveLength(0);
    });

    it('saves it at once when the page is hidden or reloaded, and when the screen goes (j / k)', async () => {
      const bodies = serveUpdate();
      const user = userEvent.setup();
      const { unmount } = renderResultUi(<FeedbackReview result={RESULT} fn={FN} text="" />);

      await editComment(user, 'Their');
      window.dispatchEvent(new Event('pagehide'));
      await waitFor(() => expect(bodies).toHaveLength(1), { timeout: 400 });
      expect(bodies[0].highlightedText).toContain('<grammar comment="Their">there</grammar>');

      await user.type(screen.getByRole('textbox', { name: 'Grammar comment' }), ', not there');
      unmount();
      await waitFor(() => expect(bodies).toHaveLength(2));
      expect(bodies[1].highlightedText).toBe(EDITED);
    });

    it('says it is not saved when saving fails, keeps it, and Retry sends it', async () => {
      let fail = true;
      const bodies: Record<string, unknown>[] = [];
      server.use(
        http.post('/api/v1/db/functionResult/update', async ({ request }) => {
          const body = (await request.json()) as Record<string, unknown>;
          bodies.push(body);
          if (fail) return HttpResponse.json({ error: { code: 'internal', message: '' } }, { status: 500 });
          return HttpResponse.json({ data: { functionResult: { ...body, status: 'reviewed' } } });
        }),
      );
      const user = userEvent.setup();
      renderResultUi(<FeedbackReview result={RESULT} fn={FN} text="" />);

      await editComment(user, 'Their, not there{Enter}');

      expect(await screen.findByText('Your changes are not saved.')).toBeInTheDocument();
      // The teacher's comment stays on screen; the AI's does not come back.
      const list = screen.getByRole('list', { name: 'Feedback items' });
      expect(within(list).getByText('Their, not there')).toBeInTheDocument();
      expect(within(list).queryByText('Use their')).not.toBeInTheDocument();

      fail = false;
      await user.click(screen.getByRole('button', { name: 'Retry' }));
      expect(await screen.findByText('Saved')).toBeInTheDocument();
      expect(bodies).toHaveLength(2);
      expect(bodies[1].highlightedText).toBe(EDITED);
    });

    it('keeps a comment being typed when another highlight is deleted meanwhile', async () => {
      const bodies = serveUpdate();
      const user = userEvent.setup();
      renderResultUi(<FeedbackReview result={RESULT} fn={FN} text="" />);

      await user.click(screen.getByRole('button', { name: 'Edit comment on “recieved”' }));
      await user.type(screen.getByRole('textbox', { name: 'Spelling comment' }), ' twice');
      await user.click(screen.getByRole('button', { name: 'Delete highlight on “there”' }));

      // The comment goes as the field is left (the click), the deletion right after, built on it.
      await waitFor(() => expect(bodies).toHaveLength(2));
      expect(bodies[0].highlightedText).toContain('<spelling comment="Spelled recieve twice">recieved</spelling>');
      expect(bodies[1].highlightedText).toBe('He went to there house &amp; <spelling comment="Spelled recieve twice">recieved</spelling> a gift.');
      await waitFor(() => expect(screen.queryByRole('button', { name: /^Grammar/ })).not.toBeInTheDocument());
      expect(screen.getByRole('textbox', { name: 'Spelling comment' })).toHaveValue('Spelled recieve twice');
    });
  });

  it('deletes a highlight and keeps its words', async () => {
    const bodies = serveUpdate();
    const user = userEvent.setup();
    renderResultUi(<FeedbackReview result={RESULT} fn={FN} text="" />);

    await user.click(screen.getByRole('button', { name: 'Delete highlight on “recieved”' }));

    expect(await screen.findByText('Feedback updated successfully')).toBeInTheDocument();
    expect(bodies[0].highlightedText).toBe('He went to <grammar comment="Use their">there</grammar> house &amp; recieved a gift.');
    await waitFor(() => expect(screen.queryByRole('button', { name: /^Spelling/ })).not.toBeInTheDocument());
    expect(screen.getByRole('region', { name: 'Submission with highlights' })).toHaveTextContent('He went to there house & recieved a gift.');
    expect(within(screen.getByRole('list', { name: 'Feedback items' })).getAllByRole('listitem')).toHaveLength(1);
  });

  it('puts a deleted highlight back with Undo, comment and all', async () => {
    const bodies = serveUpdate();
    const user = userEvent.setup();
    renderResultUi(<FeedbackReview result={RESULT} fn={FN} text="" />);

    await user.click(screen.getByRole('button', { name: 'Delete highlight on “recieved”' }));
    const notice = (await screen.findByText('Highlight deleted on “recieved”.')).closest('[role="status"]') as HTMLElement;
    await waitFor(() => expect(bodies).toHaveLength(1));
    await user.click(within(notice).getByRole('button', { name: 'Undo' }));

    await waitFor(() => expect(bodies).toHaveLength(2));
    expect(bodies[1].highlightedText).toBe(RESULT.highlightedText);
    expect(await screen.findByRole('button', { name: /^Spelling: Spelled recieve — “recieved”/ })).toBeInTheDocument();
    expect(screen.queryByText(/Highlight deleted/)).not.toBeInTheDocument();
  });

  it('adds a highlight from words selected in the text, with a highlighter and a comment', async () => {
    const bodies = serveUpdate();
    const user = userEvent.setup();
    renderResultUi(<FeedbackReview result={RESULT} fn={FN} text="" />);

    // The teacher selects "a gift" in the text: a button beside it opens the dialog with those words.
    const text = screen.getByRole('region', { name: 'Submission with highlights' });
    const last = within(text).getByText(/a gift\.$/);
    const node = last.firstChild as Text;
    const at = node.data.indexOf('a gift');
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + 'a gift'.length);
    document.getSelection()?.removeAllRanges();
    document.getSelection()?.addRange(range);
    document.dispatchEvent(new Event('selectionchange'));
    await user.click(await screen.findByRole('button', { name: 'Highlight these words' }));

    const dialog = await screen.findByRole('dialog', { name: 'Add a highlight' });
    expect(within(dialog).getByRole('textbox', { name: /Words to highlight/ })).toHaveValue('a gift');
    await user.click(within(dialog).getByRole('radio', { name: 'Spelling' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Comment' }), 'Nice & kind');
    await user.click(within(dialog).getByRole('button', { name: 'Add highlight' }));

    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0].highlightedText).toBe(
      'He went to <grammar comment="Use their">there</grammar> house &amp; <spelling comment="Spelled recieve">recieved</spelling> <spelling comment="Nice &amp; kind">a gift</spelling>.',
    );
    expect(await screen.findByRole('button', { name: /^Spelling: Nice & kind — “a gift”/ })).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Feedback items' })).getAllByRole('listitem')).toHaveLength(3);
  });

  it('adds a highlight by the keyboard, refusing words that are not in the text or already highlighted', async () => {
    const bodies = serveUpdate();
    const user = userEvent.setup();
    renderResultUi(<FeedbackReview result={RESULT} fn={FN} text="" />);

    await user.click(screen.getByRole('button', { name: 'Add highlight' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a highlight' });
    const words = within(dialog).getByRole('textbox', { name: /Words to highlight/ });
    expect(words).toHaveFocus();
    expect(within(dialog).getByRole('radio', { name: 'Grammar' })).toBeChecked();

    await user.type(words, 'a present');
    await user.click(within(dialog).getByRole('button', { name: 'Add highlight' }));
    expect(within(dialog).getByText(/^Those words are not in the submission’s text/)).toBeInTheDocument();
    await user.clear(words);
    await user.type(words, 'there house');
    await user.keyboard('{Enter}');
    await user.click(within(dialog).getByRole('button', { name: 'Add highlight' }));
    expect(within(dialog).getByText(/^Those words are already highlighted/)).toBeInTheDocument();
    expect(bodies).toHaveLength(0);

    await user.clear(words);
    await user.type(words, 'He went');
    await user.click(within(dialog).getByRole('button', { name: 'Add highlight' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0].highlightedText).toMatch(/^<grammar comment="">He went<\/grammar> to <grammar comment="Use their">there<\/grammar>/);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('offers no way to add a highlight when read-only', () => {
    renderResultUi(<FeedbackReview result={RESULT} fn={FN} text="" readOnly />);
    expect(screen.queryByRole('button', { name: 'Add highlight' })).not.toBeInTheDocument();
  });

  it('saves the overall feedback', async () => {
    const bodies = serveUpdate();
    const user = userEvent.setup();
    renderResultUi(<FeedbackReview result={RESULT} fn={FN} text="" />);

    const save = screen.getByRole('button', { name: 'Save overall feedback' });
    expect(save).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: 'Overall feedback' }), ' Check your spelling.');
    await user.click(save);

    expect(await screen.findByText('Feedback updated successfully')).toBeInTheDocument();
    expect(bodies[0]).toMatchObject({ feedback: 'A good start. Check your spelling.', highlightedText: RESULT.highlightedText });
  });

  it('saves the overall feedback as the teacher types, and what is pending when the screen goes', async () => {
    const bodies = serveUpdate();
    const user = userEvent.setup();
    const { unmount } = renderResultUi(<FeedbackReview result={RESULT} fn={FN} text="" />);

    const field = screen.getByRole('textbox', { name: 'Overall feedback' });
    await user.type(field, ' Check');
    await waitFor(() => expect(bodies).toHaveLength(1), { timeout: 3000 });
    expect(bodies[0]).toMatchObject({ feedback: 'A good start. Check' });
    expect(await screen.findByText('Saved')).toBeInTheDocument();

    // "Next submission" or Back before the pause: the screen goes, the text is saved.
    await user.type(field, ' spelling.');
    unmount();
    await waitFor(() => expect(bodies).toHaveLength(2));
    expect(bodies[1]).toMatchObject({ feedback: 'A good start. Check spelling.' });
  });

  it('says when saving fails, and keeps the highlight', async () => {
    serveUpdate(500);
    const user = userEvent.setup();
    renderResultUi(<FeedbackReview result={RESULT} fn={FN} text="" />);

    await user.click(screen.getByRole('button', { name: 'Delete highlight on “there”' }));

    expect(await screen.findByText('Error updating feedback')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Grammar: Use their — “/ })).toBeInTheDocument();
  });

  it('shows the result without any way to edit it when read-only', () => {
    renderResultUi(<FeedbackReview result={RESULT} fn={FN} text="" readOnly />);

    expect(screen.getByText('Use their')).toBeInTheDocument();
    expect(screen.getByText('A good start.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Edit comment|Delete highlight|Save/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.queryByText(/left out/)).not.toBeInTheDocument();
  });
});
