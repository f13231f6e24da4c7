import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { stubLayoutForProseMirror } from '../../../../testing/prosemirror';
import { server } from '../../../../testing/server';
import { renderResultUi, resultFixture } from '../../testing/render';
import { PromptReview } from './PromptReview';

stubLayoutForProseMirror();

const FN = { _id: 'f1', prompt: 'Be kind' };
const RESULT = resultFixture({ feedback: '## Strengths\nA **clear** thesis.\n- Cite more sources' });

function servePut(status = 200) {
  const bodies: unknown[] = [];
  server.use(
    http.put('/api/v1/db/promptFunctionResult/update', async ({ request }) => {
      bodies.push(await request.json());
      if (status !== 200) return HttpResponse.json({ error: { code: 'internal', message: 'boom' } }, { status });
      return HttpResponse.json({ data: { success: true } });
    }),
  );
  return bodies;
}

/** The feedback editor, once it has loaded. */
const editor = () => screen.findByRole('textbox', { name: 'Feedback' });

describe('PromptReview', { timeout: 60_000 }, () => {
  it('edits the feedback as formatted text beside the student\'s work, and saves it as Markdown', async () => {
    const bodies = servePut();
    const user = userEvent.setup();
    renderResultUi(<PromptReview result={RESULT} fn={FN} text="My essay." />);

    expect(screen.getByRole('region', { name: "Student's work" })).toHaveTextContent('My essay.');
    const field = await editor();
    expect(within(field).getByRole('heading', { name: 'Strengths' })).toBeInTheDocument();
    expect(field).not.toHaveTextContent('**');
    expect(screen.getByRole('button', { name: 'Save feedback' })).toBeDisabled();

    // jsdom cannot type into the editor (the browser test types): the toolbar turns the heading
    // into a paragraph.
    await user.click(screen.getByRole('button', { name: 'Heading' }));
    await waitFor(() => expect(within(field).queryByRole('heading')).not.toBeInTheDocument());
    expect(screen.getByRole("region", { name: "Student's work" })).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Save feedback' }));

    expect(await screen.findByText('Feedback updated successfully')).toBeInTheDocument();
    expect(bodies).toEqual([{ functionResultId: 'r1', data: { feedback: 'Strengths\n\nA **clear** thesis.\n\n- Cite more sources' } }]);
    expect(screen.getByRole('button', { name: 'Save feedback' })).toBeDisabled();
  });

  it('says when saving fails and keeps the edit', async () => {
    servePut(500);
    const user = userEvent.setup();
    renderResultUi(<PromptReview result={RESULT} fn={FN} text="" />);

    const field = await editor();
    await user.click(screen.getByRole('button', { name: 'Bulleted list' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save feedback' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Save feedback' }));

    expect(await screen.findByText('Error updating feedback')).toBeInTheDocument();
    expect(within(field).getAllByRole('listitem')).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Save feedback' })).toBeEnabled();
  });

  it('shows HTML in the feedback as text in the editor, never as an element', async () => {
    const { container } = renderResultUi(
      <PromptReview result={resultFixture({ feedback: '## Strengths\nA **clear** thesis. <img src=x onerror=alert(1)>' })} fn={FN} text="" />,
    );

    const field = await editor();
    expect(within(field).getByRole('heading', { name: 'Strengths' })).toBeInTheDocument();
    expect(within(field).getByText('clear').tagName).toBe('STRONG');
    expect(field).toHaveTextContent('<img src=x onerror=alert(1)>');
    expect(container.querySelector('img')).toBeNull();
  });

  it('shows the feedback read-only, with the work', () => {
    renderResultUi(<PromptReview result={RESULT} fn={FN} text="My essay." readOnly />);

    expect(screen.getByRole('heading', { name: 'Strengths' })).toBeInTheDocument();
    expect(screen.getByRole('listitem')).toHaveTextContent('Cite more sources');
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save feedback' })).not.toBeInTheDocument();
    expect(screen.getByText('Submission text')).toBeInTheDocument();
  });
});
