import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { studentKeys } from './keys';
import { readStudentLink, type StudentLink } from './types';

/**
 * Fetches an assignment's student link (`POST db/assignment/student-link/get`); the server makes
 * the token on first use. A foreign or unknown assignment rejects with 404.
 */
export async function getStudentLink(
  assignmentId: string,
  options: { signal?: AbortSignal } = {},
): Promise<StudentLink> {
  const data = await api.post<Partial<StudentLink> | undefined>(
    '/api/v1/db/assignment/student-link/get',
    { assignmentId },
    options,
  );
  return readStudentLink(data);
}

/** Query options for an assignment's student link. */
export function studentLinkQueryOptions(assignmentId: string) {
  return queryOptions({
    queryKey: studentKeys.link(assignmentId),
    queryFn: ({ signal }) => getStudentLink(assignmentId, { signal }),
  });
}

/** An assignment's student link: whether it is on, its token, and whether students may resubmit. */
export function useStudentLink(assignmentId: string) {
  return useQuery(studentLinkQueryOptions(assignmentId));
}
