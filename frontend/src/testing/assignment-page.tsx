import { useQuery, type QueryKey } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useLocation, useParams } from 'react-router';
import { api } from '../lib/api-client';
import { renderRoutes } from './render-routes';

/** Options of {@link renderOnAssignmentPage}. */
export interface AssignmentPageOptions<T> {
  /** Polls the assignment like the page does; false (the default) fetches once. */
  refetchInterval?: (data: T | undefined) => number | false;
}

/**
 * Renders what `panel` returns on a stand-in assignment page at `path` (`/assignment/{id}?…`):
 * the page owns the one `db/assignment/get` query and hands its data and key to the panel, as the
 * app's composition does, and shows the address's query string so tests can see it dropped.
 */
export function renderOnAssignmentPage<T>(
  path: string,
  panel: (data: T, queryKey: QueryKey) => ReactNode,
  { refetchInterval = () => false }: AssignmentPageOptions<T> = {},
) {
  function Page() {
    const { assignmentId = '' } = useParams();
    const { search } = useLocation();
    const queryKey = ['test-assignment', assignmentId];
    const query = useQuery({
      queryKey,
      queryFn: () => api.post<T>('/api/v1/db/assignment/get', { assignmentId }),
      refetchInterval: (q) => refetchInterval(q.state.data),
    });
    if (!query.data) return <p>Loading…</p>;
    return (
      <>
        <p>Query string: {search || 'none'}</p>
        {panel(query.data, queryKey)}
      </>
    );
  }
  return renderRoutes([{ path: 'assignment/:assignmentId', element: <Page /> }], { initialEntries: [path] });
}
