/**
 * Shapes of the submissions API as this feature uses them (the shared submissions contract).
 * Ids are UUID strings in `_id` fields; timestamps are RFC 3339.
 */

/** Where a submission's text stands: waiting, being read, readable, or unreadable. */
export type SubmissionStatus = 'queued' | 'extracting' | 'ready' | 'failed';

/** How a submission arrived. */
export type SubmissionSource = 'upload' | 'csv' | 'student' | 'google';

import type { AssignmentType } from '../../../lib/assignment-type';
import type { PageQuality } from '../../../lib/page-source';

/** The kinds of assignment: the one list in lib/assignment-type. */
export type { AssignmentType };

/** A submission as `db/assignment/get` lists it (without its text). */
export interface Submission {
  _id: string;
  assignmentId: string;
  name: string;
  location: string;
  studentName: string;
  studentEmail: string;
  submissionRole: 'teacher' | 'student';
  source: SubmissionSource;
  status: SubmissionStatus;
  /**
   * Why it failed, or a warning on a readable one ("No text found on 1 of 4 pages", "Page 2 may be
   * misread: check it against the original").
   */
  error: string;
  /**
   * The pages (from 1) whose text may be misread, to check against the original; each page's `warning`
   * says why. Always [] for a text file, whose text is its original (`error` still says what is wrong).
   */
  doubtfulPages: number[];
  /** The first 200 characters of its text. */
  preview: string;
  pageCount: number;
  isHandWritten: boolean;
  /**
   * 1, or for a student who submitted through the link again (the link allows resubmission), the
   * number of their attempt; `previousSubmissionId` is then their attempt before this one (null
   * once that one is deleted).
   */
  attempt: number;
  previousSubmissionId: string | null;
  /** The SHA-256 of its file (hex) once the server has read it; '' before that and for rows without a file. */
  contentHash: string;
  createdAt: string;
  updatedAt: string;
}

/** One page of a submission's text, how it was read (text layer, OCR, vision …) and whether it may be misread. */
export interface SubmissionPage extends PageQuality {
  text: string;
}

/** A submission as `db/submission/get` returns it: with its full text and pages. */
export interface SubmissionWithText extends Submission {
  text: string;
  pages: SubmissionPage[];
}

/** What the submissions panel needs to know about the assignment it sits on. */
export interface SubmissionsAssignment {
  _id: string;
  type: AssignmentType;
  isHandWritten: boolean;
}

/** How CSV columns become submissions: column indexes, -1 for none. */
export interface CsvMapping {
  nameColumn: number;
  emailColumn: number;
  questions: { question: number; column: number }[];
}

/** What `db/assignment/preview-csv` answers: the file's first rows and a suggested mapping. */
export interface CsvPreview {
  headers: string[];
  rows: string[][];
  rowCount: number;
  delimiter: string;
  mapping: CsvMapping;
}

/** Where a submission's AI result stands (see src/lib/result-status.ts). */
export type { ResultStatus } from '../../../lib/result-status';
import type { ResultStatus } from '../../../lib/result-status';

/** What the submissions table shows of a submission's function result. */
export interface ResultSummary {
  _id: string;
  submissionId: string;
  status: ResultStatus;
  /** Why it failed. */
  error: string;
  /** Points scored and possible (grade and rubric-feedback results), else null. */
  totalPoints: number | null;
  maxPoints: number | null;
  /** Passages where the submission tried to instruct the grader. */
  injectionPassages: string[];
  /** Graded against an earlier version of the definition; outdatedParts names what changed. */
  outdated: boolean;
  outdatedParts: string[];
}

/** What `lambda/runFunctionOnMany` takes: the submissions to grade or annotate. */
export interface RunFunctionInput {
  assignmentId: string;
  submissionIds: string[];
  /**
   * Grade results the teacher reviewed again too, replacing their edits. Unset, the server skips
   * them (they come back unchanged).
   */
  overwriteReviewed?: boolean;
  /** Grade again only the results graded against an earlier version ("Grade changed questions again"). */
  onlyOutdated?: boolean;
}
