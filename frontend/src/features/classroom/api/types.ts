/**
 * Shapes of the Google Classroom API as the picker uses them (internal/classroom on the server).
 */

/** Whether this server can reach Google Classroom and whether the teacher has connected it. */
export interface ClassroomStatus {
  /** This server can talk to Google Classroom. */
  configured: boolean;
  /** The teacher has connected their Google account with every permission needed. */
  connected: boolean;
  /** Why the import cannot be used yet ("" when it can), e.g. 'Google sign-in is not configured on this server'. */
  reason: string;
  /** The teacher's connection allows sending grades back (false: reconnect to allow it). */
  canSendGrades: boolean;
}

/** A class the teacher teaches. */
export interface Course {
  id: string;
  name: string;
  section: string;
}

/** An assignment ("coursework") of a class. */
export interface Coursework {
  id: string;
  title: string;
}

/** A Google Drive file attached to a student's work. */
export interface Attachment {
  id: string;
  title: string;
  /** Drive's type; "" when Drive would not say (the file is gone or not shared with the teacher). */
  mimeType: string;
}

/** A student's turned-in work on one coursework. */
export interface StudentSubmission {
  id: string;
  studentName: string;
  studentEmail: string;
  /** Classroom's state: TURNED_IN or RETURNED. */
  state: string;
  attachments: Attachment[];
}

/** An attachment (or a whole selected submission, with no title) the import left out, and why. */
export interface SkippedItem {
  submissionId: string;
  studentName: string;
  /** The attachment's title; "" when the whole submission was skipped. */
  title: string;
  reason: string;
}

/** What an import created and what it left out. */
export interface ImportResult {
  /** How many submissions were created (one per attachment). */
  imported: number;
  skipped: SkippedItem[];
}

/** The assignment the picker imports into. */
export interface ClassroomAssignment {
  _id: string;
  /** The assignment's type; the server checks it is the assignment's own. */
  type: string;
}

/** What a run of "Send grades to Classroom" did for one student. */
export type PassbackState = 'pending' | 'sent' | 'returned' | 'failed';

/** One student's row of a run. */
export interface PassbackStudent {
  submissionId: string;
  studentName: string;
  state: PassbackState;
  /** The grade sent, on the Classroom assignment's scale. */
  grade: number | null;
  /** Why nothing (or not everything) was sent, in plain words; "" when all went well. */
  error: string;
  at: string | null;
}

/** A run of "Send grades to Classroom" (`google/classroom/passback`). */
export interface Passback {
  _id: string;
  status: 'queued' | 'running' | 'done';
  grade: 'draft' | 'assigned';
  returnToStudents: boolean;
  done: number;
  total: number;
  students: PassbackStudent[];
}
