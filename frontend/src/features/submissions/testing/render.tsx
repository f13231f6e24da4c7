import { configure } from '@testing-library/react';
import { useQuery } from '@tanstack/react-query';
import { useLocation, useParams } from 'react-router';
import { api } from '../../../lib/api-client';
import { renderRoutes } from '../../../testing/render-routes';
import type { SubmissionsAssignment } from '../api/types';
import { SubmissionsPanel } from '../components/SubmissionsPanel';
import { submissionsRefetchInterval } from '../lib/polling';

// Tables and dialogs are large; on a busy machine a render can outlast Testing Library's 1 s default.
configure({ asyncUtilTimeout: 5000 });

interface AssignmentData {
  assignment: SubmissionsAssignment;
  functionResults: unknown[];
  submissions: unknown[];
}

/**
 * Stands in for the assignment page: it owns the one `db/assignment/get` query (polled like the
 * page polls it) and hands its data and key to the panel, as the app's composition does.
 */
function Page({ questions }: { questions: string[] }) {
  const { assignmentId = '' } = useParams();
  const { search } = useLocation();
  const queryKey = ['test-assignment', assignmentId];
  const query = useQuery({
    queryKey,
    queryFn: () => api.post<AssignmentData>('/api/v1/db/assignment/get', { assignmentId }),
    refetchInterval: (q) => submissionsRefetchInterval(q.state.data?.submissions),
  });
  if (!query.data) return <p>Loading…</p>;
  return (
    <>
      <p>Query string: {search || 'none'}</p>
      <SubmissionsPanel
        assignment={query.data.assignment}
        submissions={query.data.submissions}
        functionResults={query.data.functionResults}
        questions={questions}
        assignmentQueryKey={queryKey}
      />
    </>
  );
}

/** Renders the submissions panel on a stand-in assignment page at `path`. */
export function renderSubmissions(path: string, { questions = [] as string[] } = {}) {
  return renderRoutes([{ path: 'assignment/:assignmentId', element: <Page questions={questions} /> }], { initialEntries: [path] });
}
