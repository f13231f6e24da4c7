import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { classroomKeys } from './keys';
import { readList, readText } from './read';
import type { Course } from './types';

/** Lists the classes the teacher teaches in Google Classroom (`POST google/classroom/courses`). */
export async function getCourses(options: { signal?: AbortSignal } = {}): Promise<Course[]> {
  const data = await api.post<{ courses?: unknown } | undefined>('/api/v1/google/classroom/courses', {}, options);
  return readList(data?.courses, (c) => ({ id: readText(c, 'id'), name: readText(c, 'name'), section: readText(c, 'section') }));
}

/** Query options for the teacher's classes. */
export function coursesQueryOptions() {
  return queryOptions({
    queryKey: classroomKeys.courses(),
    queryFn: ({ signal }) => getCourses({ signal }),
  });
}

/** The teacher's Google Classroom classes; fetched only while `enabled`. */
export function useCourses(enabled = true) {
  return useQuery({ ...coursesQueryOptions(), enabled });
}
