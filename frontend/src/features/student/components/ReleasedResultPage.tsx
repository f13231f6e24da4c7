import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { LoadError } from '../../../components/LoadError';
import { ApiError, api } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { Waiting } from './ResultStates';
import { StudentMessage } from './StudentMessage';
import { ViewResultPage, type ViewResultPageProps } from './ViewResultPage';

/** Said for a link that was revoked, mistyped or never existed (the three look alike). */
export const LINK_NOT_FOUND_MESSAGE = 'This result link does not work.';

/**
 * Which submission and assignment a released link opens: the view-only reads accept the release
 * token alone, and their answers carry the ids.
 */
async function resolveReleaseToken(viewToken: string, signal: AbortSignal) {
  const [sub, asg] = await Promise.all([
    api.post<{ submission?: { _id?: unknown } }>('/api/v1/db/submission/get-view-only', { viewToken }, { signal }),
    api.post<{ assignment?: { _id?: unknown } }>('/api/v1/db/assignment/get-view-only', { viewToken }, { signal }),
  ]);
  const submissionId = sub?.submission?._id;
  const assignmentId = asg?.assignment?._id;
  if (typeof submissionId !== 'string' || typeof assignmentId !== 'string') throw new Error('The server sent no result');
  return { submissionId, assignmentId, viewToken };
}

/**
 * `/results/:token`: a result the teacher released, opened from any device with the private link
 * they sent or handed out. A revoked or unknown link says so; otherwise the student's result page.
 */
export function ReleasedResultPage(props: ViewResultPageProps) {
  const { token = '' } = useParams();
  const resolved = useQuery({
    queryKey: ['student', 'release', token],
    queryFn: ({ signal }) => resolveReleaseToken(token, signal),
    retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
    staleTime: Infinity,
  });
  useDocumentTitle('Your feedback');

  if (resolved.isError && resolved.error instanceof ApiError && resolved.error.status >= 400 && resolved.error.status < 500) {
    return (
      <StudentMessage
        title={LINK_NOT_FOUND_MESSAGE}
        description="It may have been turned off by your teacher, or copied incompletely. Ask your teacher for a new link."
      />
    );
  }
  if (resolved.isError) {
    return <LoadError message="Couldn't load your result. Check your connection and try again." onRetry={() => void resolved.refetch()} retrying={resolved.isFetching} />;
  }
  if (!resolved.data) {
    return <Waiting title="Opening your feedback…" description="One moment." label="Opening your feedback" />;
  }
  return <ViewResultPage {...props} released={resolved.data} />;
}
