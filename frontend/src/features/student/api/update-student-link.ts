import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { assignmentHistoryKeys } from '../../../lib/query-keys';
import { studentKeys } from './keys';
import { readStudentLink, type StudentLink } from './types';

/** What `db/assignment/student-link/update` takes: turn the link on or off, allow resubmission, or make a new one. */
export interface StudentLinkUpdate {
  assignmentId: string;
  enabled?: boolean;
  /** True keeps a student's later submissions as new attempts; false refuses them. */
  allowResubmission?: boolean;
  /** True replaces the token: the old link stops working. */
  rotate?: boolean;
}

/** Turns an assignment's student link on or off, allows resubmission, or rotates it (`POST db/assignment/student-link/update`). */
export async function updateStudentLink(input: StudentLinkUpdate): Promise<StudentLink> {
  const data = await api.post<Partial<StudentLink> | undefined>('/api/v1/db/assignment/student-link/update', input);
  return readStudentLink(data);
}

/** Updates a student link and puts the server's answer in the cache. */
export function useUpdateStudentLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateStudentLink,
    onSuccess: (link, input) => {
      queryClient.setQueryData(studentKeys.link(input.assignmentId), link);
      // The change is in the assignment's history.
      void queryClient.invalidateQueries({ queryKey: assignmentHistoryKeys.of(input.assignmentId) });
    },
  });
}
