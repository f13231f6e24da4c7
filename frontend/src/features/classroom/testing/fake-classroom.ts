import { http, HttpResponse } from 'msw';
import { server } from '../../../testing/server';
import type { ClassroomStatus, Course, Coursework, SkippedItem, StudentSubmission } from '../api/types';

/** The assignment the fake serves. */
export const ASSIGNMENT_ID = 'a1111111-1111-4111-8111-111111111111';

/** The teacher's classes. */
export const COURSES: Course[] = [
  { id: 'c1', name: 'History', section: '9B' },
  { id: 'c2', name: 'Geography', section: '' },
];

/** The assignments of class c1 (c2 has none). */
export const COURSEWORK: Coursework[] = [
  { id: 'w1', title: 'Causes of WW1 essay' },
  { id: 'w2', title: 'Trench life diary' },
];

/** The turned-in work on w1. */
export const WORK: StudentSubmission[] = [
  { id: 's1', studentName: 'Ann Lee', studentEmail: 'ann@school.org', state: 'TURNED_IN', attachments: [{ id: 'f1', title: 'Ann essay.pdf', mimeType: 'application/pdf' }] },
  {
    id: 's2',
    studentName: 'Ben Cho',
    studentEmail: 'ben@school.org',
    state: 'RETURNED',
    attachments: [
      { id: 'f2', title: 'Ben essay', mimeType: 'application/vnd.google-apps.document' },
      { id: 'f3', title: 'marks.xlsx', mimeType: 'application/vnd.ms-excel' },
    ],
  },
  { id: 's3', studentName: 'Cy Diaz', studentEmail: 'cy@school.org', state: 'TURNED_IN', attachments: [] },
];

/** An API error response. */
export function apiError(status: number, message: string, code: string) {
  return HttpResponse.json({ error: { code, message } }, { status });
}

/** Options for {@link fakeClassroom}. */
export interface FakeClassroomOptions {
  status?: Partial<ClassroomStatus>;
  /** Answers `google/classroom/courses` instead of listing {@link COURSES}. */
  courses?: () => Response | undefined;
  /** Answers `google/classroom/submissions` instead of listing {@link WORK}. */
  work?: () => Response | undefined;
  /** What an import skips. */
  skipped?: SkippedItem[];
  /** Answers the import instead of importing. */
  importError?: () => Response;
}

/**
 * A fake backend for the Classroom picker on one grade assignment: the assignment lists the
 * submissions imported so far; every POST body is recorded by path.
 */
export function fakeClassroom(options: FakeClassroomOptions = {}) {
  const bodies: Record<string, unknown[]> = {};
  const submissions: { _id: string; name: string; studentName: string }[] = [];
  const post = (path: string, answer: (body: Record<string, unknown>) => Response | unknown) =>
    http.post(`/api/v1/${path}`, async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      (bodies[path] ??= []).push(body);
      const out = answer(body);
      return out instanceof Response ? out : HttpResponse.json({ data: out });
    });

  server.use(
    post('google/classroom/status', () => ({ configured: true, connected: true, reason: '', ...options.status })),
    post('db/assignment/get', () => ({ assignment: { _id: ASSIGNMENT_ID, type: 'grade' }, functionResults: [], submissions })),
    post('google/classroom/courses', () => options.courses?.() ?? { courses: COURSES }),
    post('google/classroom/coursework', (b) => ({ coursework: b.classId === 'c1' ? COURSEWORK : [] })),
    post('google/classroom/submissions', (b) => options.work?.() ?? { submissions: b.courseworkId === 'w1' ? WORK : [] }),
    post('db/assignment/update-submissions-from-google', (b) => {
      if (options.importError) return options.importError();
      const skipped = options.skipped ?? [];
      const created = (b.selectedStudentSubmissions as string[]).flatMap((id) => {
        const work = WORK.find((w) => w.id === id)!;
        return work.attachments
          .filter((a) => !skipped.some((s) => s.submissionId === id && (s.title === a.title || s.title === '')))
          .map((a) => ({ _id: `new-${a.id}`, name: a.title, studentName: work.studentName }));
      });
      submissions.push(...created);
      return { submissions: created, functionResults: [], skipped };
    }),
  );
  return { bodies: (path: string) => bodies[path] ?? [] };
}
