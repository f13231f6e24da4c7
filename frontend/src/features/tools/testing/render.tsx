import { http, HttpResponse } from 'msw';
import { useParams } from 'react-router';
import { renderRoutes } from '../../../testing/render-routes';
import { server } from '../../../testing/server';
import type { Catalog } from '../api/types';
import { ToolsPage } from '../components/ToolsPage';
import { toolRoutesWithChat } from '../../../app/routes/ToolRoutes';

/** The catalogue as the backend sends it (`GET /api/v1/catalog`). */
export const TEST_CATALOG: Catalog = {
  tools: [
    {
      id: 'lesson-planner',
      title: 'Lesson planner',
      description: 'Plans a lesson with you, step by step.',
      initialMessage: 'What are you teaching?',
      kind: 'chat',
    },
    {
      id: 'quiz-maker',
      title: 'Quiz maker',
      description: 'Writes quiz questions on any topic.',
      initialMessage: 'What should the quiz cover?',
      kind: 'chat',
    },
    {
      id: 'parent-letter',
      title: 'Parent letter',
      description: 'Drafts a letter to parents.',
      initialMessage: 'What is the letter about?',
      kind: 'chat',
    },
    {
      id: 'rubric-from-sheet',
      title: 'Rubric from an assignment sheet',
      description: 'Turns an assignment sheet into a rubric in your library.',
      initialMessage: '',
      kind: 'rubric',
    },
  ],
  workflows: [
    {
      id: 'lesson-plan',
      title: 'Lesson plan',
      description: 'Answer a few questions and get a full lesson plan.',
      fields: [
        { name: 'subject', label: 'Subject', kind: 'text', required: true, placeholder: 'e.g. Biology', maxLength: 100 },
        { name: 'grade', label: 'Year group', kind: 'select', required: true, options: ['Year 7', 'Year 8', 'Year 9'], maxLength: 50 },
        { name: 'objectives', label: 'Learning objectives', kind: 'textarea', required: false, placeholder: 'What should students be able to do?', maxLength: 2000 },
      ],
    },
    {
      id: 'quiz-from-text',
      title: 'Quiz from a text',
      description: 'Paste a text and get a quiz about it.',
      fields: [{ name: 'text', label: 'Text', kind: 'textarea', required: true, maxLength: 20000 }],
    },
  ],
};

/** Makes `GET /api/v1/catalog` answer `catalog`. */
export function serveCatalog(catalog: Catalog = TEST_CATALOG) {
  server.use(http.get('/api/v1/catalog', () => HttpResponse.json({ data: catalog })));
}

function PageStub() {
  const params = useParams();
  return <h1>Stub page {params['*']}</h1>;
}

/**
 * Renders the catalogue at `/tools` (with stand-ins for the pages it leads to) under the toast,
 * with a fresh cache; returns the router too.
 */
export function renderToolsPage() {
  return renderRoutes(
    [
      { path: '/tools', element: <ToolsPage /> },
      { path: '*', element: <PageStub /> },
    ],
    { initialEntries: ['/tools'] },
  );
}

/**
 * Renders the tools routes (catalogue and workflows) with the history `entries`, the last one
 * shown, and stand-ins for the pages they lead to; returns the router too.
 */
export function renderToolRoutes(...entries: string[]) {
  return renderRoutes([...toolRoutesWithChat, { path: '*', element: <PageStub /> }], {
    initialEntries: entries,
    initialIndex: entries.length - 1,
  });
}

/** One server-sent event as `chat/stream` writes it. */
export function sseEvent(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Answers `POST /api/v1/chat/stream` with `events` as text/event-stream; returns the request bodies. */
export function serveChatStream(events: string[]) {
  const bodies: unknown[] = [];
  server.use(
    http.post('/api/v1/chat/stream', async ({ request }) => {
      bodies.push(await request.json());
      return new HttpResponse(events.join(''), { headers: { 'Content-Type': 'text/event-stream' } });
    }),
  );
  return bodies;
}
