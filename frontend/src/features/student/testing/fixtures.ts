import { http, HttpResponse } from 'msw';
import type { LinkAssignment, StudentSubmission } from '../api/types';

/** The assignment behind the test link `tok-1`. */
export const LINK_ASSIGNMENT: LinkAssignment = {
  _id: 'a1',
  name: 'Persuasive essay',
  type: 'grade',
  isHandWritten: false,
  provideInstantFeedback: true,
};

/** A submission as the view-only call returns it; override fields per test. */
export function submission(overrides: Partial<StudentSubmission> = {}): StudentSubmission {
  return {
    _id: 's1',
    name: 'essay.pdf',
    studentName: 'Sam Student',
    status: 'ready',
    error: '',
    pageCount: 1,
    text: 'My essay.',
    ...overrides,
  };
}

/** `student/link` answering with `assignment` for token `tok-1` and 404 for any other. */
export function linkHandler(assignment: LinkAssignment = LINK_ASSIGNMENT) {
  return http.post('/api/v1/student/link', async ({ request }) => {
    const { linkToken } = (await request.json()) as { linkToken: string };
    if (linkToken !== 'tok-1') {
      return HttpResponse.json(
        { error: { code: 'not_found', message: 'This submission link is turned off or does not exist.' } },
        { status: 404 },
      );
    }
    return HttpResponse.json({ data: { assignment } });
  });
}

/** A backend error response. */
export function apiError(status: number, code: string, message: string) {
  return HttpResponse.json({ error: { code, message } }, { status });
}
