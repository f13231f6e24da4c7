import { useParams } from 'react-router';
import { renderRoutes } from '../../../testing/render-routes';
import { RubricEditorPage } from '../components/RubricEditorPage';
import { RubricsPage } from '../components/RubricsPage';

function LibraryStub() {
  return <h1>Library stub</h1>;
}

function ParamsStub() {
  return <h1>Page {useParams()['*']}</h1>;
}

/** Renders the rubric routes at `path` with the toast and a fresh cache; returns the router too. */
export function renderRubricRoutes(path: string) {
  return renderRoutes(
    [
      { path: '/rubrics', element: <RubricsPage /> },
      { path: '/rubrics/new', element: <RubricEditorPage /> },
      { path: '/rubrics/:rubricId', element: <RubricEditorPage /> },
      { path: '/library', element: <LibraryStub /> },
      { path: '*', element: <ParamsStub /> },
    ],
    { initialEntries: [path] },
  );
}
