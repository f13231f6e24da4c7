import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { classroomKeys } from './keys';
import { readList, readText } from './read';
import type { Coursework } from './types';

/** Lists the assignments of one class (`POST google/classroom/coursework`). */
export async function getCoursework(classId: string, options: { signal?: AbortSignal } = {}): Promise<Coursework[]> {
  const data = await api.post<{ coursework?: unknown } | undefined>('/api/v1/google/classroom/coursework', { classId }, options);
  return readList(data?.coursework, (w) => ({ id: readText(w, 'id'), title: readText(w, 'title') }));
}

/** Query options for a class's assignments. */
export function courseworkQueryOptions(classId: string) {
  return queryOptions({
    queryKey: classroomKeys.coursework(classId),
    queryFn: ({ signal }) => getCoursework(classId, { signal }),
  });
}

/** The assignments of the class `classId`; nothing is fetched until a class is chosen. */
export function useCoursework(classId: string) {
  return useQuery({ ...courseworkQueryOptions(classId), enabled: classId !== '' });
}
