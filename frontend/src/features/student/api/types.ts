/** Where a submission stands: read by a worker after upload, or failed with a reason. */
export type SubmissionStatus = 'queued' | 'extracting' | 'ready' | 'failed';

/**
 * A submission as the view-only call returns it to a student: their own work's text and what the
 * result page says about it, nothing else (docs/api-submissions.md, "What a view token reads").
 */
export interface StudentSubmission {
  _id: string;
  name: string;
  studentName: string;
  status: SubmissionStatus;
  /** Why reading failed, or a warning such as 'No text found on 1 of 4 pages'. */
  error: string;
  pageCount: number;
  text?: string;
}

/** The part of an assignment a student link shows (`student/link`). */
export interface LinkAssignment {
  _id: string;
  name: string;
  type: string;
  isHandWritten: boolean;
  provideInstantFeedback: boolean;
  /** A student may submit again through the link (their next attempt); absent is off. */
  allowResubmission?: boolean;
}

/** The state of an assignment's student submission link. */
export interface StudentLink {
  enabled: boolean;
  token: string;
  /** Off: each student submits once. On: a later submission is kept as their next attempt. */
  allowResubmission: boolean;
}

/** True while a worker has yet to finish reading the submission. */
export function isBeingRead(submission: Pick<StudentSubmission, 'status'> | undefined): boolean {
  return submission?.status === 'queued' || submission?.status === 'extracting';
}

/** A student link as the server sent it, with every field present. */
export function readStudentLink(data: Partial<StudentLink> | undefined): StudentLink {
  return { enabled: data?.enabled === true, token: data?.token ?? '', allowResubmission: data?.allowResubmission === true };
}
