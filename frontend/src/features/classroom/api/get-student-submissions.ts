import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { classroomKeys } from './keys';
import { readList, readText } from './read';
import type { StudentSubmission } from './types';

/**
 * Lists the turned-in work on one assignment of a class, with each student's name, email and
 * Drive attachments (`POST google/classroom/submissions`).
 */
export async function getStudentSubmissions(
  classId: string,
  courseworkId: string,
  options: { signal?: AbortSignal } = {},
): Promise<StudentSubmission[]> {
  const data = await api.post<{ submissions?: unknown } | undefined>(
    '/api/v1/google/classroom/submissions',
    { classId, courseworkId },
    options,
  );
  return readList(data?.submissions, (s) => ({
    id: readText(s, 'id'),
    studentName: readText(s, 'studentName'),
    studentEmail: readText(s, 'studentEmail'),
    state: readText(s, 'state'),
    attachments: readList(s.attachments, (a) => ({ id: readText(a, 'id'), title: readText(a, 'title'), mimeType: readText(a, 'mimeType') })),
  }));
}

/** Query options for the turned-in work on one assignment of a class. */
export function studentSubmissionsQueryOptions(classId: string, courseworkId: string) {
  return queryOptions({
    queryKey: classroomKeys.submissions(classId, courseworkId),
    queryFn: ({ signal }) => getStudentSubmissions(classId, courseworkId, { signal }),
  });
}

/** The turned-in work on `courseworkId`; nothing is fetched until an assignment is chosen. */
export function useStudentSubmissions(classId: string, courseworkId: string) {
  return useQuery({ ...studentSubmissionsQueryOptions(classId, courseworkId), enabled: classId !== '' && courseworkId !== '' });
}
