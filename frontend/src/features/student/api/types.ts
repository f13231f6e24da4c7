/** Where a submission stands: read by a worker after upload, or failed with a reason. */
export type SubmissionStatus = 'queued' | 'extracting' | 'ready' | 'failed';

/** One page of a submission's text and how it was read (text layer, OCR, vision model …). */
export interface SubmissionPage {
  text: string;
  source: string;
}

/** A submission as the view-only call returns it, with its full text. */
export interface StudentSubmission {
  _id: string;
  assignmentId: string;
  name: string;
  studentName: string;
  studentEmail: string;
  status: SubmissionStatus;
  /** Why reading failed, or a warning such as 'No text found on 1 of 4 pages'. */
  error: string;
  pageCount: number;
  text?: string;
  pages?: SubmissionPage[];
  createdAt: string;
  updatedAt: string;
}

/** The part of an assignment a student link shows (`student/link`). */
export interface LinkAssignment {
  _id: string;
  name: string;
  type: string;
  isHandWritten: boolean;
  provideInstantFeedback: boolean;
}

/** The state of an assignment's student submission link. */
export interface StudentLink {
  enabled: boolean;
  token: string;
}

/** True while a worker has yet to finish reading the submission. */
export function isBeingRead(submission: Pick<StudentSubmission, 'status'> | undefined): boolean {
  return submission?.status === 'queued' || submission?.status === 'extracting';
}
