import { api } from '../../../lib/api-client';
import type { ReaderFlags } from '../../../lib/submission-files';
import type { LinkAssignment } from './types';

/** What `db/assignment/update-submissions-from-student` takes (one file). */
export interface StudentSubmissionInput extends ReaderFlags {
  linkToken: string;
  assignmentId: string;
  submissions: { name: string; location: string }[];
  submissionRole: 'student';
  type: string;
  isHandWritten: boolean;
  studentName: string;
  studentEmail: string;
  studentSubmissionLTIDetails?: Record<string, unknown>;
  /** A pupil's LTI launch token: the server takes name, email and LTI details from the launch. */
  ltiLaunch?: string;
}

/** The new submission, and the token that lets this browser read it on the result page. */
export interface SubmittedWork {
  submissionId: string;
  viewToken: string;
  assignment?: Partial<LinkAssignment>;
}

/** Records a student's uploaded file as a submission (`POST db/assignment/update-submissions-from-student`). */
export async function submitStudentWork(input: StudentSubmissionInput): Promise<SubmittedWork> {
  const data = await api.post<
    { submissions?: { _id?: string }[]; viewToken?: string; assignment?: Partial<LinkAssignment> } | undefined
  >('/api/v1/db/assignment/update-submissions-from-student', input);
  const submissionId = data?.submissions?.[0]?._id;
  if (!submissionId) throw new Error('The server sent no submission');
  return { submissionId, viewToken: data.viewToken ?? '', assignment: data.assignment };
}
