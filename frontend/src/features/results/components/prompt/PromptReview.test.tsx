import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '../../../../testing/server';
import { renderResultUi, resultFixture } from '../../testing/render';
import { PromptReview } from './PromptReview';

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

describe('PromptReview', () => {
  it('saves edited feedback with PUT promptFunctionResult/update and says so', async () => {
    const bodies = servePut();
    const user = userEvent.setup();
    renderResultUi(<PromptReview result={RESULT} fn={FN} text="My essay." />);

    const field = screen.getByRole('textbox', { name: 'Feedback' });
    expect(field).toHaveValue(RESULT.feedback);
    await user.type(field, '\nWell done.');
    await user.click(screen.getByRole('button', { name: 'Save feedback' }));

    expect(await screen.findByText('Feedback updated successfully')).toBeInTheDocument();
    expect(bodies).toEqual([{ functionResultId: 'r1', data: { feedback: `${RESULT.feedback}\nWell done.` } }]);
    expect(screen.getByRole('button', { name: 'Save feedback' })).toBeDisabled();
  });

  it('says when saving fails and keeps the edit', async () => {
    servePut(500);
    const user = userEvent.setup();
    renderResultUi(<PromptReview result={RESULT} fn={FN} text="" />);

    await user.type(screen.getByRole('textbox', { name: 'Feedback' }), '!');
    await user.click(screen.getByRole('button', { name: 'Save feedback' }));

    expect(await screen.findByText('Error updating feedback')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Feedback' })).toHaveValue(`${RESULT.feedback}!`);
    expect(screen.getByRole('button', { name: 'Save feedback' })).toBeEnabled();
  });

  it('previews the feedback as formatted text, never as HTML', async () => {
    const user = userEvent.setup();
    const { container } = renderResultUi(
      <PromptReview result={resultFixture({ feedback: '## Strengths\nA **clear** thesis. <img src=x onerror=alert(1)>' })} fn={FN} text="" />,
    );

    await user.click(screen.getByRole('button', { name: 'Preview' }));

    expect(screen.getByRole('heading', { name: 'Strengths' })).toBeInTheDocument();
    expect(screen.getByText('clear').tagName).toBe('STRONG');
    expect(screen.getByText(/<img src=x onerror=alert\(1\)>/)).toBeInTheDocument();
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
