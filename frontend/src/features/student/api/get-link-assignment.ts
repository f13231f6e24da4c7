import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { studentKeys } from './keys';
import type { LinkAssignment } from './types';

/**
 * Fetches the assignment a student link leads to (`POST student/link`). No sign-in is needed; a
 * link that is turned off or unknown rejects with 404.
 */
export async function getLinkAssignment(
  linkToken: string,
  options: { signal?: AbortSignal } = {},
): Promise<LinkAssignment> {
  const data = await api.post<{ assignment?: LinkAssignment } | undefined>('/api/v1/student/link', { linkToken }, options);
  if (!data?.assignment) throw new Error('The server sent no assignment');
  return data.assignment;
}

/** Query options for the assignment behind a link token. */
export function linkAssignmentQueryOptions(linkToken: string) {
  return queryOptions({
    queryKey: studentKeys.linkAssignment(linkToken),
    queryFn: ({ signal }) => getLinkAssignment(linkToken, { signal }),
  });
}

/** The assignment a student link leads to. */
export function useLinkAssignment(linkToken: string) {
  return useQuery(linkAssignmentQueryOptions(linkToken));
}
