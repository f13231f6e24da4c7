import { useParams } from 'react-router';
import { renderRoutes } from '../../../testing/render-routes';
import { assistantRoutes } from '../routes';

function ChatStub() {
  return <h1>Chat with {useParams().assistantId}</h1>;
}

/**
 * Renders the assistant routes at `path` with the toast and a fresh cache (plus a stand-in chat
 * page, which another feature owns). `history` puts other pages behind it, as if the teacher came
 * from them. Returns the router too.
 */
export function renderAssistantRoutes(path: string, history: string[] = []) {
  return renderRoutes([...assistantRoutes, { path: 'assistants/:assistantId/chat', element: <ChatStub /> }], {
    initialEntries: [...history, path],
    initialIndex: history.length,
  });
}
