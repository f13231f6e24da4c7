import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { studentKeys } from './keys';
import type { StudentLink } from './types';

/** What `db/assignment/student-link/update` takes: turn the link on or off, or make a new one. */
export interface StudentLinkUpdate {
  assignmentId: string;
  enabled?: boolean;
  /** True replaces the token: the old link stops working. */
  rotate?: boolean;
}

/** Turns an assignment's student link on or off, or rotates it (`POST db/assignment/student-link/update`). */
export async function updateStudentLink(input: StudentLinkUpdate): Promise<StudentLink> {
  const data = await api.post<Partial<StudentLink> | undefined>('/api/v1/db/assignment/student-link/update', input);
  return { enabled: data?.enabled === true, token: data?.token ?? '' };
}

/** Updates a student link and puts the server's answer in the cache. */
export function useUpdateStudentLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateStudentLink,
    onSuccess: (link, input) => queryClient.setQueryData(studentKeys.link(input.assignmentId), link),
  });
}
