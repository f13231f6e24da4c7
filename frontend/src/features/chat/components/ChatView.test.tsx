import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { StrictMode } from 'react';
import { describe, expect, it } from 'vitest';
import { renderRoutes } from '../../../testing/render-routes';
import { server } from '../../../testing/server';
import { chatDoc, renderChat, sendMessage, serveChats } from '../testing/chat-fixtures';
import { holdChatStreams } from '../testing/sse-server';
import { ChatView } from '../index';

const composer = () => screen.getByRole('textbox', { name: 'Message' });
const messages = () => screen.getByRole('list', { name: 'Messages' });
const liveRegion = () => screen.getByLabelText('Answer in progress');

describe('ChatView streaming', { timeout: 60_000 }, () => {
  it('shows the answer growing piece by piece, then as a message', async () => {
    const streams = holdChatStreams();
    const { user } = renderChat('/chat');
    expect(await screen.findByRole('heading', { name: 'Document chat' })).toBeInTheDocument();

    await sendMessage(user, 'Plan a lesson');
    await waitFor(() => expect(streams).toHaveLength(1));
    expect(streams[0].body).toEqual({ messages: [{ role: 'user', content: 'Plan a lesson' }] });
    expect(within(messages()).getByText('Plan a lesson')).toBeInTheDocument();
    expect(composer()).toBeDisabled();
    expect(liveRegion()).toHaveAttribute('aria-live', 'polite');

    streams[0].send('meta', { omittedTurns: 0 });
    streams[0].send('delta', { text: 'Here is ' });
    expect(await within(liveRegion()).findByText('Here is')).toBeInTheDocument();
    streams[0].raw(': ping\n\n');
    streams[0].send('delta', { text: 'your plan.' });
    expect(await within(liveRegion()).findByText('Here is your plan.')).toBeInTheDocument();
    expect(within(messages()).queryByText('Here is your plan.')).not.toBeInTheDocument();

    streams[0].send('done', { text: 'Here is your plan.', document: '', usage: {} });
    expect(await within(messages()).findByText('Here is your plan.')).toBeInTheDocument();
    expect(liveRegion()).toBeEmptyDOMElement();
    expect(composer()).toBeEnabled();
    expect(screen.queryByRole('region', { name: 'Document' })).not.toBeInTheDocument();
  });

  it('Shift+Enter writes a new line instead of sending', async () => {
    const streams = holdChatStreams();
    const { user } = renderChat('/chat');
    await user.type(composer(), 'Line one{Shift>}{Enter}{/Shift}Line two');
    expect(composer()).toHaveValue('Line one\nLine two');
    expect(streams).toHaveLength(0);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(streams).toHaveLength(1));
    expect(streams[0].body).toEqual({ messages: [{ role: 'user', content: 'Line one\nLine two' }] });
  });

  it('says how many earlier messages were left out', async () => {
    const streams = holdChatStreams();
    const { user } = renderChat('/chat');
    await sendMessage(user, 'Hi');
    await waitFor(() => expect(streams).toHaveLength(1));
    streams[0].send('meta', { omittedTurns: 3 });
    expect(await screen.findByText("3 earlier messages were left out to fit the model's context")).toBeInTheDocument();
  });

  it('Stop aborts the answer and keeps the partial text, marked Stopped', async () => {
    const streams = holdChatStreams();
    const { user } = renderChat('/chat');
    await sendMessage(user, 'Write a long letter');
    await waitFor(() => expect(streams).toHaveLength(1));
    streams[0].send('meta', { omittedTurns: 0 });
    streams[0].send('delta', { text: 'Dear parents,' });
    await within(liveRegion()).findByText('Dear parents,');

    await user.click(screen.getByRole('button', { name: 'Stop' }));

    const partial = await within(messages()).findByText('Dear parents,');
    expect(within(partial.closest('li')!).getByText('Stopped')).toBeInTheDocument();
    expect(within(partial.closest('li')!).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    await waitFor(() => expect(streams[0].cancelled()).toBe(true));
    expect(composer()).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Stop' })).not.toBeInTheDocument();

    // The stopped answer is part of the conversation that follows.
    await sendMessage(user, 'Go on');
    await waitFor(() => expect(streams).toHaveLength(2));
    expect(streams[1].body).toEqual({
      messages: [
        { role: 'user', content: 'Write a long letter' },
        { role: 'assistant', content: 'Dear parents,' },
        { role: 'user', content: 'Go on' },
      ],
    });
    // Only the last answer offers Retry.
    expect(within(messages()).queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });

  it('Stop while "Thinking…" keeps the answer as "Stopped before answering." with Retry, which asks the same question again', async () => {
    const streams = holdChatStreams();
    const { user } = renderChat('/chat');
    await sendMessage(user, 'Plan a lesson on fractions');
    await waitFor(() => expect(streams).toHaveLength(1));
    streams[0].send('meta', { omittedTurns: 0 });
    await within(liveRegion()).findByText('Thinking…');

    await user.click(screen.getByRole('button', { name: 'Stop' }));

    const note = await within(messages()).findByText('Stopped before answering.');
    const bubble = note.closest('li')!;
    expect(bubble).toHaveAccessibleName('Assistant');
    await waitFor(() => expect(streams[0].cancelled()).toBe(true));
    expect(liveRegion()).toBeEmptyDOMElement();
    expect(within(messages()).getByText('Plan a lesson on fractions')).toBeInTheDocument();

    await user.click(within(bubble).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(streams).toHaveLength(2));
    expect(streams[1].body).toEqual(streams[0].body);
    expect(within(messages()).queryByText('Stopped before answering.')).not.toBeInTheDocument();
    streams[1].send('done', { text: 'Here is a plan.', document: '' });
    expect(await within(messages()).findByText('Here is a plan.')).toBeInTheDocument();
    expect(within(messages()).getAllByRole('listitem', { name: 'Assistant' })).toHaveLength(1);
  });

  it('leaves an answer stopped before any text out of what the model is asked next', async () => {
    const streams = holdChatStreams();
    const { user } = renderChat('/chat');
    await sendMessage(user, 'Plan a lesson on fractions');
    await waitFor(() => expect(streams).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    await within(messages()).findByText('Stopped before answering.');

    await sendMessage(user, 'Make it about decimals');
    await waitFor(() => expect(streams).toHaveLength(2));
    expect(streams[1].body).toEqual({
      messages: [
        { role: 'user', content: 'Plan a lesson on fractions' },
        { role: 'user', content: 'Make it about decimals' },
      ],
    });
    // The unanswered question still shows as such.
    expect(within(messages()).getByText('Stopped before answering.')).toBeInTheDocument();
  });

  it('saves an answer stopped before any text marked stopped (Save chat)', async () => {
    const streams = holdChatStreams();
    const puts: { chatState: { messages: unknown[] } }[] = [];
    server.use(
      http.put('/api/v1/db/chat/put', async ({ request }) => {
        puts.push((await request.json()) as { chatState: { messages: unknown[] } });
        return HttpResponse.json({ data: { chatDoc: { _id: 'c7' } } });
      }),
    );
    serveChats([]);
    const { user } = renderChat('/chat');
    await sendMessage(user, 'Plan a lesson on fractions');
    await waitFor(() => expect(streams).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    await within(messages()).findByText('Stopped before answering.');

    await user.click(screen.getByRole('button', { name: 'Save chat' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0].chatState.messages).toEqual([
      { role: 'user', content: 'Plan a lesson on fractions' },
      { role: 'assistant', content: '', stopped: true },
    ]);
  });

  it('reopens a saved chat whose last answer was stopped before any text, with Retry', async () => {
    serveChats([
      chatDoc({
        messages: [
          { role: 'user', content: 'Plan a lesson on fractions' },
          { role: 'assistant', content: 'Here is a first plan.' },
          { role: 'user', content: 'Add homework' },
          { role: 'assistant', content: '', stopped: true },
        ],
        document: '# Fractions v1',
        pastDocuments: [{ messageIndex: 1, document: '# Fractions v1' }],
        toolId: 'lesson-planner',
      }),
    ]);
    server.use(
      http.get('/api/v1/catalog', () =>
        HttpResponse.json({
          data: {
            tools: [{ id: 'lesson-planner', title: 'Lesson planner', description: '', initialMessage: 'What lesson?', kind: 'chat' }],
            workflows: [],
          },
        }),
      ),
    );
    const streams = holdChatStreams();
    const { user } = renderChat('/chat/c1');
    const note = await within(await screen.findByRole('list', { name: 'Messages' })).findByText('Stopped before answering.');

    await user.click(within(note.closest('li')!).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(streams).toHaveLength(1));
    expect(streams[0].body).toEqual({
      messages: [
        { role: 'user', content: 'Plan a lesson on fractions' },
        { role: 'assistant', content: 'Here is a first plan.' },
        { role: 'user', content: 'Add homework' },
      ],
      toolId: 'lesson-planner',
      document: '# Fractions v1',
    });
    streams[0].send('done', { text: 'Homework added.', document: '' });
    expect(await within(messages()).findByText('Homework added.')).toBeInTheDocument();
    expect(within(messages()).queryByText('Stopped before answering.')).not.toBeInTheDocument();
  });

  it('shows a failed answer with Retry, which resends the conversation without it', async () => {
    const streams = holdChatStreams();
    const { user } = renderChat('/chat');
    await sendMessage(user, 'Make a quiz');
    await waitFor(() => expect(streams).toHaveLength(1));
    streams[0].send('meta', { omittedTurns: 0 });
    streams[0].send('delta', { text: 'Question 1' });
    await within(liveRegion()).findByText('Question 1');
    streams[0].send('error', { message: 'The AI model could not answer. Please try again.' });

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The AI model could not answer. Please try again.');
    expect(screen.queryByText('Question 1')).not.toBeInTheDocument();

    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(streams).toHaveLength(2));
    expect(streams[1].body).toEqual(streams[0].body);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    streams[1].send('done', { text: 'Quiz ready.', document: '' });
    expect(await within(messages()).findByText('Quiz ready.')).toBeInTheDocument();
  });

  it("shows the server's refusal before the stream, and a network failure, with Retry", async () => {
    let calls = 0;
    server.use(
      http.post('/api/v1/chat/stream', () => {
        calls += 1;
        if (calls === 1) {
          return HttpResponse.json(
            { error: { code: 'rate_limited', message: 'You have used your AI budget for now.' } },
            { status: 429 },
          );
        }
        return HttpResponse.error();
      }),
    );
    const { user } = renderChat('/chat');
    await sendMessage(user, 'Hello');
    expect(await screen.findByRole('alert')).toHaveTextContent('You have used your AI budget for now.');
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent('The answer could not be loaded. Check your connection and try again.'),
    );
    expect(calls).toBe(2);
  });
});

describe('ChatView pages', { timeout: 60_000 }, () => {
  it('heads an assistant chat with its title and opens with its first message', async () => {
    server.use(
      http.post('/api/v1/db/assistant/list', () =>
        HttpResponse.json({
          data: { assistants: [{ _id: 'a1', title: 'Essay coach', initialMessage: 'Which essay shall we plan?' }] },
        }),
      ),
    );
    const streams = holdChatStreams();
    const { user } = renderChat('/assistants/a1/chat');
    expect(await screen.findByRole('heading', { name: 'Essay coach' })).toBeInTheDocument();
    expect(document.title).toContain('Essay coach');
    expect(within(messages()).getByText('Which essay shall we plan?')).toBeInTheDocument();

    await sendMessage(user, 'Romeo and Juliet');
    await waitFor(() => expect(streams).toHaveLength(1));
    expect(streams[0].body).toEqual({
      messages: [
        { role: 'assistant', content: 'Which essay shall we plan?' },
        { role: 'user', content: 'Romeo and Juliet' },
      ],
      assistantId: 'a1',
    });
  });

  it('heads a tool chat with the title from the catalogue and sends its toolId', async () => {
    server.use(
      http.get('/api/v1/catalog', () =>
        HttpResponse.json({
          data: {
            tools: [{ id: 'quiz-maker', title: 'Quiz maker', description: '', initialMessage: 'What topic?', kind: 'chat' }],
            workflows: [],
          },
        }),
      ),
    );
    const streams = holdChatStreams();
    const { user } = renderChat('/tools/quiz-maker/chat');
    expect(await screen.findByRole('heading', { name: 'Quiz maker' })).toBeInTheDocument();
    await sendMessage(user, 'Volcanoes');
    await waitFor(() => expect(streams).toHaveLength(1));
    expect(streams[0].body).toMatchObject({ toolId: 'quiz-maker' });
  });

  it('says so when the tool does not exist', async () => {
    server.use(http.get('/api/v1/catalog', () => HttpResponse.json({ data: { tools: [], workflows: [] } })));
    renderChat('/tools/nope/chat');
    expect(await screen.findByRole('heading', { name: 'This tool was not found' })).toBeInTheDocument();
  });

  it('runs a workflow once on mount, even under StrictMode, and shows its prompt as the first message', async () => {
    const streams = holdChatStreams();
    renderRoutes(
      [
        {
          path: 'workflows/:workflowId',
          element: (
            <StrictMode>
              <ChatView title="Lesson plan" workflow={{ id: 'lesson-plan', inputs: { topic: 'Fractions' } }} />
            </StrictMode>
          ),
        },
      ],
      { initialEntries: ['/workflows/lesson-plan'] },
    );
    await waitFor(() => expect(streams).toHaveLength(1));
    expect(streams[0].body).toEqual({ messages: [], workflow: { id: 'lesson-plan', inputs: { topic: 'Fractions' } } });

    streams[0].send('meta', { omittedTurns: 0, prompt: 'Write a lesson plan about Fractions.' });
    expect(await within(messages()).findByText('Write a lesson plan about Fractions.')).toBeInTheDocument();
    streams[0].send('document', { document: '# Fractions' });
    streams[0].send('done', { text: 'Done.', document: '# Fractions' });
    expect(await screen.findByRole('heading', { name: 'Fractions' })).toBeInTheDocument();
    // Still one run: StrictMode's second effect pass did not start another.
    await new Promise((r) => setTimeout(r, 50));
    expect(streams).toHaveLength(1);
    expect(streams[0].cancelled()).toBe(false);
  });
});

describe('ChatView markdown', { timeout: 60_000 }, () => {
  it('shows HTML in messages as text (never markup), gives links rel and target, and loads no outside image', async () => {
    serveChats([
      chatDoc({
        messages: [
          { role: 'user', content: 'Hi <b>there</b> [mine](https://example.org/me)' },
          {
            role: 'assistant',
            content:
              'Look <script>window.__xss = 1</script><img src="x" onerror="window.__xss = 2">\n\n' +
              '[the site](https://example.com/page) and [bad](javascript:alert(1))\n\n' +
              '![chart](https://evil.example/c.png) ![local](/files/chart.png)\n\n' +
              '| Task | Notes |\n| --- | --- |\n| 1 | first line<br>second line |',
          },
        ],
        document: '',
        pastDocuments: [],
      }),
    ]);
    renderChat('/chat/c1');
    const list = await screen.findByRole('list', { name: 'Messages' });

    expect(list.querySelector('script')).toBeNull();
    expect(list.querySelector('img[onerror]')).toBeNull();
    expect(list.querySelector('img[src="x"]')).toBeNull();
    expect(list.querySelector('b')).toBeNull();
    expect((window as { __xss?: number }).__xss).toBeUndefined();
    // What was typed stays as typed: the tags show as text, neither run nor dropped.
    expect(within(list).getByText(/Hi <b>there<\/b>/)).toBeInTheDocument();
    expect(within(list).getByText(/Look <script>window.__xss = 1<\/script><img src="x"/)).toBeInTheDocument();
    // …except the editor's line break in a table cell, which stays a line break.
    const cell = within(list).getByRole('cell', { name: /first line/ });
    expect(cell.querySelector('br')).not.toBeNull();
    expect(cell).not.toHaveTextContent('<br>');

    const link = within(list).getByRole('link', { name: 'the site' });
    expect(link).toHaveAttribute('href', 'https://example.com/page');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(within(list).getByRole('link', { name: 'mine' })).toHaveAttribute('rel', 'noopener noreferrer');
    expect(within(list).getByText('bad').getAttribute('href') ?? '').not.toContain('javascript');

    expect(list.querySelector('img[src^="https://evil.example"]')).toBeNull();
    expect(within(list).getByText('[chart]')).toBeInTheDocument();
    expect(within(list).getByRole('img', { name: 'local' })).toHaveAttribute('src', '/files/chart.png');
  });
});

describe('ChatView unsaved work', { timeout: 60_000 }, () => {
  it('asks before "New chat" drops an unsaved chat, and keeps it on "Keep chatting"', async () => {
    const streams = holdChatStreams();
    const { user } = renderChat('/chat');
    await sendMessage(user, 'Plan a lesson');
    await waitFor(() => expect(streams).toHaveLength(1));
    streams[0].send('done', { text: 'Here is your plan.', document: '', usage: {} });
    expect(await within(messages()).findByText('Here is your plan.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'New chat' }));
    const dialog = await screen.findByRole('dialog', { name: 'Start a new chat without saving?' });
    await user.click(within(dialog).getByRole('button', { name: 'Keep chatting' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(within(messages()).getByText('Here is your plan.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'New chat' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Start new chat' }));
    await waitFor(() => expect(within(messages()).queryByText('Here is your plan.')).not.toBeInTheDocument());
    expect(screen.getByText('Not saved yet')).toBeInTheDocument();
  });

  it('starts a new chat at once when nothing is unsaved', async () => {
    serveChats([chatDoc()]);
    const { user } = renderChat('/chat/c1');
    expect(await within(await screen.findByRole('list', { name: 'Messages' })).findByText('Homework added.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New chat' }));
    await waitFor(() => expect(screen.queryByText('Homework added.')).not.toBeInTheDocument());
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
