import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import { readerFlags, sanitizeFileName, submissionFileType, submissionsFolder, type Reader } from '../../../lib/submission-files';
import { UploadError, uploadFile } from '../../../lib/upload-file';
import { useAddSubmissions } from '../api/add-submissions';
import type { AssignmentQueryKey } from '../api/keys';
import { requestUpload } from '../api/request-upload';
import type { SubmissionsAssignment } from '../api/types';
import { IDLE, uploadReducer, type UploadItem } from './upload-progress';
import { useBeforeUnload } from './use-before-unload';

/** How many files upload at once. */
export const UPLOAD_CONCURRENCY = 4;

/** A file that was picked but is not one of the accepted types. */
export interface RefusedFile {
  name: string;
}

interface Job {
  item: UploadItem;
  file: File;
  mimeType: string;
  reader: Reader;
}

interface Uploaded {
  name: string;
  location: string;
  reader: Reader;
}

function failureMessage(error: unknown): string {
  if (error instanceof UploadError) return error.message;
  return errorMessage(error, 'The upload failed. Please try again.');
}

/**
 * Uploads files as submissions of `assignment`: refuses other types up front, uploads up to
 * {@link UPLOAD_CONCURRENCY} at once (sign with `s3-upload`, then PUT the bytes), counts one
 * increment per finished file, then records every uploaded file in one `update-submissions`
 * call and "reloads" the page: it goes to the same address without its query string and the
 * assignment is fetched again. Leaving the page while files upload asks first.
 */
export function useFileUpload(assignment: SubmissionsAssignment, assignmentQueryKey: AssignmentQueryKey) {
  const [progress, dispatch] = useReducer(uploadReducer, IDLE);
  const [refused, setRefused] = useState<RefusedFile[]>([]);
  const uploadedRef = useRef<Uploaded[]>([]);
  const abortRef = useRef<AbortController | null>(null);
  const nextId = useRef(1);
  const addSubmissions = useAddSubmissions(assignmentQueryKey);
  const { showToast } = useToast();
  const navigate = useNavigate();
  const { pathname } = useLocation();

  const running = progress.phase === 'uploading' || progress.phase === 'saving';
  useBeforeUnload(running);
  useEffect(() => () => abortRef.current?.abort(), []);

  const save = useCallback(
    async (uploaded: Uploaded[], failed: number) => {
      dispatch({ type: 'saving' });
      try {
        await addSubmissions.mutateAsync({
          assignmentId: assignment._id,
          submissions: uploaded.map(({ name, location }) => ({ name, location })),
          submissionRole: 'teacher',
          type: assignment.type,
          ...readerFlags(uploaded.map((u) => u.reader)),
          isHandWritten: assignment.isHandWritten,
        });
      } catch (error) {
        dispatch({ type: 'save-failed', error: errorMessage(error, "The files were uploaded but couldn't be added. Please try again.") });
        return;
      }
      dispatch({ type: 'finish' });
      const files = `${uploaded.length} ${uploaded.length === 1 ? 'file' : 'files'}`;
      showToast(
        failed === 0
          ? { type: 'success', message: `Uploaded ${files}. Reading them now…` }
          : { type: 'warning', message: `Uploaded ${files}; ${failed} failed.` },
      );
      // The spec's reload after an upload: the same page without its query string.
      void navigate({ pathname }, { replace: true });
    },
    [addSubmissions, assignment, navigate, pathname, showToast],
  );

  const upload = useCallback(
    async (jobs: Job[]) => {
      const controller = new AbortController();
      abortRef.current = controller;
      // Results by position, so the submissions keep the order the teacher picked the files in.
      const results: (Uploaded | undefined)[] = new Array(jobs.length);
      let next = 0;
      const worker = async () => {
        while (next < jobs.length && !controller.signal.aborted) {
          const index = next++;
          const { item, file, mimeType, reader } = jobs[index];
          dispatch({ type: 'uploading', id: item.id });
          try {
            const signed = await requestUpload({
              fileName: submissionsFolder(assignment._id) + sanitizeFileName(file.name),
              fileType: mimeType,
              fileSize: file.size,
            });
            await uploadFile(signed.signedUrl, file, mimeType, {
              signal: controller.signal,
              onProgress: (fraction) => dispatch({ type: 'progress', id: item.id, progress: fraction }),
            });
            results[index] = { name: file.name, location: signed.location, reader };
            dispatch({ type: 'increment', id: item.id, location: signed.location });
          } catch (error) {
            if (controller.signal.aborted) return;
            console.warn(`Upload of ${file.name} failed`, error);
            dispatch({ type: 'increment', id: item.id, error: failureMessage(error) });
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(UPLOAD_CONCURRENCY, jobs.length) }, worker));
      if (controller.signal.aborted) return;
      const uploaded = results.filter((r): r is Uploaded => r !== undefined);
      uploadedRef.current = uploaded;
      const failed = jobs.length - uploaded.length;
      if (uploaded.length === 0) {
        dispatch({ type: 'finish' });
        showToast({ type: 'error', message: jobs.length === 1 ? 'The file could not be uploaded.' : 'None of the files could be uploaded.' });
        return;
      }
      await save(uploaded, failed);
    },
    [assignment._id, save, showToast],
  );

  /** Starts uploading `files`; files of other types are refused and listed in `refused`. */
  const addFiles = useCallback(
    (files: File[]) => {
      if (running || files.length === 0) return;
      const jobs: Job[] = [];
      const refusedNow: RefusedFile[] = [];
      for (const file of files) {
        const type = submissionFileType(file);
        if (!type) {
          refusedNow.push({ name: file.name });
          continue;
        }
        const item: UploadItem = { id: nextId.current++, name: file.name, status: 'waiting', progress: 0 };
        jobs.push({ item, file, mimeType: type.mimeType, reader: type.reader });
      }
      setRefused(refusedNow);
      if (jobs.length === 0) {
        dispatch({ type: 'reset' });
        return;
      }
      dispatch({ type: 'start', items: jobs.map((j) => j.item) });
      void upload(jobs);
    },
    [running, upload],
  );

  /** Tries again to record the files that did upload. */
  const retrySave = useCallback(() => {
    const uploaded = uploadedRef.current;
    if (uploaded.length > 0) void save(uploaded, progress.total - uploaded.length);
  }, [progress.total, save]);

  /** Clears the finished batch and any refusal. */
  const dismiss = useCallback(() => {
    if (running) return;
    dispatch({ type: 'reset' });
    setRefused([]);
  }, [running]);

  /** Clears the list of refused files. */
  const clearRefused = useCallback(() => setRefused([]), []);

  return { progress, refused, running, addFiles, retrySave, dismiss, clearRefused };
}
