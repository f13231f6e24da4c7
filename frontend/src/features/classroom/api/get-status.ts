import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { classroomKeys } from './keys';
import type { ClassroomStatus } from './types';

/**
 * Asks whether this server can import from Google Classroom and whether the teacher has connected
 * it (`POST google/classroom/status`).
 */
export async function getClassroomStatus(options: { signal?: AbortSignal } = {}): Promise<ClassroomStatus> {
  const data = await api.post<Partial<ClassroomStatus> | undefined>('/api/v1/google/classroom/status', {}, options);
  return {
    configured: data?.configured === true,
    connected: data?.connected === true,
    reason: typeof data?.reason === 'string' ? data.reason : '',
    canSendGrades: data?.canSendGrades === true,
  };
}

/** Query options for the Classroom status. */
export function classroomStatusQueryOptions() {
  return queryOptions({
    queryKey: classroomKeys.status(),
    queryFn: ({ signal }) => getClassroomStatus({ signal }),
  });
}

/** Whether Google Classroom can be used, and if not, why. */
export function useClassroomStatus() {
  return useQuery(classroomStatusQueryOptions());
}
