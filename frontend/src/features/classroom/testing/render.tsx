import { configure } from '@testing-library/react';
import { useQuery } from '@tanstack/react-query';
import { useLocation, useParams } from 'react-router';
import { api } from '../../../lib/api-client';
import { renderRoutes } from '../../../testing/render-routes';
import { ClassroomImportButton } from '../components/ClassroomImportButton';

// Dialogs are large; on a busy machine a render can outlast Testing Library's 1 s default.
configure({ asyncUtilTimeout: 5000 });

interface AssignmentData {
  assignment: { _id: string; type: string };
  submissions: { _id: string; name: string; studentName: string }[];
}

/**
 * Stands in for the assignment page: it owns the `db/assignment/get` query, lists its submissions
 * and shows the address's query string, with the Classroom button beside them.
 */
function Page() {
  const { assignmentId = '' } = useParams();
  const { search } = useLocation();
  const queryKey = ['test-assignment', assignmentId];
  const query = useQuery({
    queryKey,
    queryFn: () => api.post<AssignmentData>('/api/v1/db/assignment/get', { assignmentId }),
  });
  if (!query.data) return <p>Loading…</p>;
  return (
    <>
      <p>Query string: {search || 'none'}</p>
      <ClassroomImportButton assignment={query.data.assignment} assignmentQueryKey={queryKey} />
      <ul aria-label="Submissions">
        {query.data.submissions.map((s) => (
          <li key={s._id}>
            {s.studentName}: {s.name}
          </li>
        ))}
      </ul>
    </>
  );
}

/** Renders the Classroom button on a stand-in assignment page at `path`. */
export function renderClassroom(path: string) {
  return renderRoutes([{ path: 'assignment/:assignmentId', element: <Page /> }], { initialEntries: [path] });
}
