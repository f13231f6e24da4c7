import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { readerFlags, sanitizeFileName, submissionFileType, submissionName } from '../../../lib/submission-files';
import { uploadFile } from '../../../lib/upload-file';
import { requestStudentUpload } from '../api/request-student-upload';
import { submitStudentWork, type SubmittedWork } from '../api/submit-student-work';
import type { LinkAssignment } from '../api/types';
import { saveViewToken } from '../lib/view-token';

/** Said when a student submission fails (spec §8). */
export const SUBMIT_FAILED_MESSAGE = 'Something went wrong! Please try again';

/** What the student filled in. */
export interface StudentWork {
  linkToken: string;
  assignment: LinkAssignment;
  studentName: string;
  studentEmail: string;
  file: File;
  /** LTI launch details passed on the link's query string, sent as given. */
  ltiDetails?: Record<string, unknown>;
  /** The pupil's LTI launch token (`?ltiLaunch=`), when they came from their course. */
  ltiLaunch?: string;
}

/** Where a submission is: uploading the file (with its progress) or recording it. */
export type SubmitStage = { step: 'uploading'; progress: number } | { step: 'saving' } | null;

/**
 * The message for a failed submission: the server's own words for a refused file (400), a link
 * turned off or replaced meanwhile, or an expired course launch (404), a student who has already
 * submitted (409) or a rate limit (429), the spec's generic message for anything else.
 */
export function submitErrorMessage(error: unknown): string {
  const refused = error instanceof ApiError && [400, 404, 409, 429].includes(error.status);
  return refused ? errorMessage(error, SUBMIT_FAILED_MESSAGE) : SUBMIT_FAILED_MESSAGE;
}

/**
 * Submits a student's work: asks for an upload URL through the link, PUTs the file (tracking
 * progress), records the submission, and keeps its view token in this tab's sessionStorage.
 */
export function useSubmitWork() {
  const [stage, setStage] = useState<SubmitStage>(null);
  const mutation = useMutation({
    mutationFn: async (work: StudentWork): Promise<SubmittedWork> => {
      const kind = submissionFileType(work.file);
      if (!kind) throw new Error(`Unsupported file ${work.file.name}`);
      // Shortened first: a name the server would refuse must not leave an upload with no submission.
      const name = submissionName(work.file.name);
      setStage({ step: 'uploading', progress: 0 });
      const upload = await requestStudentUpload({
        fileName: sanitizeFileName(name),
        fileType: kind.mimeType,
        fileSize: work.file.size,
        linkToken: work.linkToken,
      });
      await uploadFile(upload.signedUrl, work.file, kind.mimeType, {
        onProgress: (progress) => setStage({ step: 'uploading', progress }),
      });
      setStage({ step: 'saving' });
      const submitted = await submitStudentWork({
        linkToken: work.linkToken,
        assignmentId: work.assignment._id,
        submissions: [{ name, location: upload.location }],
        submissionRole: 'student',
        type: work.assignment.type,
        ...readerFlags([kind.reader]),
        isHandWritten: work.assignment.isHandWritten,
        studentName: work.studentName.trim(),
        studentEmail: work.studentEmail.trim(),
        ...(work.ltiDetails ? { studentSubmissionLTIDetails: work.ltiDetails } : {}),
        ...(work.ltiLaunch ? { ltiLaunch: work.ltiLaunch } : {}),
      });
      if (submitted.viewToken) saveViewToken(submitted.submissionId, submitted.viewToken);
      return submitted;
    },
    onSettled: () => setStage(null),
  });
  return { ...mutation, stage };
}
