import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import { readerFlags, sanitizeFileName, submissionFileType, submissionName, submissionsFolder, type Reader } from '../../../lib/submission-files';
import { UploadError } from '../../../lib/upload-error';
import { useAddSubmissions } from '../api/add-submissions';
import type { AssignmentQueryKey } from '../api/keys';
import { loadUploader } from '../lib/load-uploader';
import type { Submission, SubmissionsAssignment } from '../api/types';
import { IDLE, uploadReducer, type UploadItem } from './upload-progress';
import { useBeforeUnload } from '../../../lib/use-before-unload';

/** How many files upload at once. */
export const UPLOAD_CONCURRENCY = 4;

/**
 * How long finished files of a batch wait to be recorded while the rest still upload: a long
 * batch is recorded as it goes, so a reload or a lost tab keeps what had arrived (and a second
 * upload of the same files sets those aside as already uploaded).
 */
export const RECORD_EVERY_MS = 5_000;

/** The most files one `update-submissions` call takes. */
export const RECORD_AT_MOST = 200;

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

/** A picked file that did not upload, and why: it is recorded as a failed submission. */
interface NotUploaded {
  name: string;
  error: string;
  reader: Reader;
}

/** A file of a batch set aside because an earlier file of the same batch has the same content. */
export interface CopiedFile {
  file: File;
  /** The name of the earlier file it is a copy of (the one that is uploaded). */
  sameAs: string;
}

/** Options of `addFiles`. */
export interface AddFilesOptions {
  /** Upload them even when the same content is already a submission ("Add them anyway"). */
  evenIfUploaded?: boolean;
}

function failureMessage(error: unknown): string {
  if (error instanceof UploadError) return error.message;
  return errorMessage(error, 'The upload failed. Please try again.');
}

/**
 * Uploads files as submissions of `assignment`: refuses other types up front, sets aside files
 * whose content is already one of `submissions` (compared by SHA-256, listed in `duplicates`
 * until the teacher adds them anyway or closes the note) and files whose content is an earlier
 * file's of the same batch (listed in `copies`, with the file they copy), uploads up to
 * {@link UPLOAD_CONCURRENCY} at once (sign with `s3-upload`, then PUT the bytes), counts one
 * increment per finished file, records the files in `update-submissions` calls — one at the end,
 * and every {@link RECORD_EVERY_MS} before that on a long batch; a file that could not be
 * uploaded (empty, too large …) as a failed row with its reason — and
 * "reloads" the page: it goes to the same address without its query string and the assignment
 * is fetched again. Leaving the page while files upload asks first.
 */
export function useFileUpload(assignment: SubmissionsAssignment, assignmentQueryKey: AssignmentQueryKey, submissions: readonly Submission[] = []) {
  const [progress, dispatch] = useReducer(uploadReducer, IDLE);
  const [refused, setRefused] = useState<RefusedFile[]>([]);
  const [duplicates, setDuplicates] = useState<File[]>([]);
  const [copies, setCopies] = useState<CopiedFile[]>([]);
  const [checking, setChecking] = useState(false);
  /** The batch's files not recorded yet (after a failed save), and how the whole batch went. */
  const unsavedRef = useRef<{ files: (Uploaded | NotUploaded)[]; batch: { total: number; failed: number } } | null>(null);
  const abortRef = useRef<AbortController | null>(null);
  const nextId = useRef(1);
  const addSubmissions = useAddSubmissions(assignmentQueryKey);
  const { showToast } = useToast();
  const navigate = useNavigate();
  const { pathname } = useLocation();

  const running = checking || progress.phase === 'uploading' || progress.phase === 'saving';
  const knownHashes = useRef(new Set<string>());
  knownHashes.current = new Set(submissions.map((sub) => sub.contentHash).filter(Boolean));
  useBeforeUnload(running);
  useEffect(() => () => abortRef.current?.abort(), []);

  /**
   * Records `files` in calls of at most {@link RECORD_AT_MOST} (the route's limit); `onRecorded`
   * hears of each call that succeeded, so a failure part-way leaves only the rest to record.
   */
  const record = useCallback(
    async (files: (Uploaded | NotUploaded)[], onRecorded: (count: number) => void = () => {}) => {
      for (let start = 0; start < files.length; start += RECORD_AT_MOST) {
        const part = files.slice(start, start + RECORD_AT_MOST);
        await addSubmissions.mutateAsync({
          assignmentId: assignment._id,
          submissions: part.map((f) => ('location' in f ? { name: f.name, location: f.location } : { name: f.name, error: f.error })),
          submissionRole: 'teacher',
          type: assignment.type,
          ...readerFlags(part.map((u) => u.reader)),
          isHandWritten: assignment.isHandWritten,
        });
        onRecorded(part.length);
      }
    },
    [addSubmissions, assignment],
  );

  /** Records the batch's files not recorded yet (`unsavedRef`), then tells how the batch went. */
  const save = useCallback(
    async () => {
      const unsaved = unsavedRef.current;
      if (!unsaved) return;
      dispatch({ type: 'saving' });
      try {
        await record(unsaved.files, (count) => (unsaved.files = unsaved.files.slice(count)));
      } catch (error) {
        dispatch({ type: 'save-failed', error: errorMessage(error, "The files were uploaded but couldn't be added. Please try again.") });
        return;
      }
      unsavedRef.current = null;
      dispatch({ type: 'finish' });
      const { total, failed } = unsaved.batch;
      const uploaded = total - failed;
      const count = `${uploaded} ${uploaded === 1 ? 'file' : 'files'}`;
      showToast(
        failed === 0
          ? { type: 'success', message: `Uploaded ${count}. Reading ${uploaded === 1 ? 'it' : 'them'} now…` }
          : uploaded === 0
            ? { type: 'error', message: total === 1 ? 'The file could not be uploaded.' : 'None of the files could be uploaded.' }
            : { type: 'warning', message: `Uploaded ${count}; ${failed} failed.` },
      );
      // The spec's reload after an upload: the same page without its query string.
      void navigate({ pathname }, { replace: true });
    },
    [record, navigate, pathname, showToast],
  );

  const upload = useCallback(
    async (jobs: Job[]) => {
      const controller = new AbortController();
      abortRef.current = controller;
      // Results by position, so the submissions keep the order the teacher picked the files in.
      const results: (Uploaded | NotUploaded | undefined)[] = new Array(jobs.length);
      // Finished files are recorded as they go, in the order picked: every RECORD_EVERY_MS the
      // finished files ahead of the first unfinished one. One that fails to record waits for
      // the last call (and recording as it goes stops).
      let recorded = 0;
      let notRecorded: (Uploaded | NotUploaded)[] = [];
      let lastRecord = Date.now();
      let recording: Promise<void> = Promise.resolve();
      let recordFailed = false;
      const recordFinished = () => {
        let end = recorded;
        while (end < results.length && results[end] !== undefined) end++;
        const files = results.slice(recorded, end) as (Uploaded | NotUploaded)[];
        recorded = end;
        return files;
      };
      const recordAsItGoes = () => {
        if (recordFailed || Date.now() - lastRecord < RECORD_EVERY_MS) return;
        const files = recordFinished();
        if (files.length === 0) return;
        lastRecord = Date.now();
        let left = files;
        recording = recording.then(() =>
          record(files, (count) => (left = left.slice(count))).catch((error: unknown) => {
            console.warn('Recording uploaded files failed; they are recorded with the rest', error);
            recordFailed = true;
            notRecorded = [...notRecorded, ...left];
          }),
        );
      };
      let next = 0;
      const worker = async () => {
        while (next < jobs.length && !controller.signal.aborted) {
          const index = next++;
          const { item, file, mimeType, reader } = jobs[index];
          dispatch({ type: 'uploading', id: item.id });
          try {
            const { requestUpload, uploadFile } = await loadUploader();
            const signed = await requestUpload({
              fileName: submissionsFolder(assignment._id) + sanitizeFileName(file.name),
              fileType: mimeType,
              fileSize: file.size,
            });
            await uploadFile(signed.signedUrl, file, mimeType, {
              signal: controller.signal,
              onProgress: (fraction) => dispatch({ type: 'progress', id: item.id, progress: fraction }),
            });
            results[index] = { name: submissionName(file.name), location: signed.location, reader };
            dispatch({ type: 'increment', id: item.id, location: signed.location });
            recordAsItGoes();
          } catch (error) {
            if (controller.signal.aborted) return;
            console.warn(`Upload of ${file.name} failed`, error);
            const message = failureMessage(error);
            results[index] = { name: submissionName(file.name), error: message, reader };
            dispatch({ type: 'increment', id: item.id, error: message });
            recordAsItGoes();
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(UPLOAD_CONCURRENCY, jobs.length) }, worker));
      await recording;
      if (controller.signal.aborted) return;
      const all = results.filter((r): r is Uploaded | NotUploaded => r !== undefined);
      const rest = [...notRecorded, ...recordFinished()];
      unsavedRef.current = { files: rest, batch: { total: all.length, failed: all.filter((f) => 'error' in f).length } };
      await save();
    },
    [assignment._id, record, save],
  );

  /**
   * Starts uploading `files`: files of other types are refused and listed in `refused`; unless
   * `evenIfUploaded`, files whose content is already a submission are set aside in `duplicates`,
   * and a file whose content is an earlier file's of the same batch in `copies` (the same name
   * with other content is no copy: only the bytes count).
   */
  const addFiles = useCallback(
    async (files: File[], options: AddFilesOptions = {}) => {
      if (running || files.length === 0) return;
      const accepted: File[] = [];
      const refusedNow: RefusedFile[] = [];
      for (const file of files) {
        if (submissionFileType(file)) accepted.push(file);
        else refusedNow.push({ name: file.name });
      }
      setRefused(refusedNow);
      let fresh = accepted;
      const seen: File[] = [];
      const copiesNow: CopiedFile[] = [];
      const known = knownHashes.current;
      // Which files to hash: every one when the class has submissions to compare with, else only
      // those whose size another file of the batch shares (only they can be copies of each other).
      // An empty file is never compared: its upload says it is empty.
      const sizes = new Map<number, number>();
      for (const file of accepted) sizes.set(file.size, (sizes.get(file.size) ?? 0) + 1);
      const toHash = options.evenIfUploaded
        ? []
        : accepted.filter((file) => file.size > 0 && (known.size > 0 || (sizes.get(file.size) ?? 0) > 1));
      if (toHash.length > 0) {
        setChecking(true);
        // Without the hashes (the upload code did not load) nothing is set aside: each file's
        // upload then says why it failed.
        const hashed = await loadUploader()
          .then(({ fileSha256 }) => Promise.all(toHash.map((file) => fileSha256(file))))
          .catch(() => toHash.map(() => null));
        setChecking(false);
        const hashOf = new Map(toHash.map((file, i) => [file, hashed[i]]));
        // The first file of the batch with each content, by hash: later ones are its copies.
        const firstWith = new Map<string, File>();
        fresh = [];
        for (const file of accepted) {
          const hash = hashOf.get(file) ?? null;
          if (hash === null) fresh.push(file);
          else if (known.has(hash)) seen.push(file);
          else if (firstWith.has(hash)) copiesNow.push({ file, sameAs: firstWith.get(hash)!.name });
          else {
            firstWith.set(hash, file);
            fresh.push(file);
          }
        }
      }
      setDuplicates(seen);
      setCopies(copiesNow);
      const jobs: Job[] = fresh.map((file) => {
        const type = submissionFileType(file)!;
        const item: UploadItem = { id: nextId.current++, name: file.name, status: 'waiting', progress: 0 };
        return { item, file, mimeType: type.mimeType, reader: type.reader };
      });
      if (jobs.length === 0) {
        dispatch({ type: 'reset' });
        return;
      }
      dispatch({ type: 'start', items: jobs.map((j) => j.item) });
      void upload(jobs);
    },
    [running, upload],
  );

  /** Uploads the files set aside as already uploaded or as copies ("Add them anyway"). */
  const addDuplicates = useCallback(() => {
    const files = [...duplicates, ...copies.map((c) => c.file)];
    if (files.length === 0 || running) return;
    setDuplicates([]);
    setCopies([]);
    void addFiles(files, { evenIfUploaded: true });
  }, [addFiles, copies, duplicates, running]);

  /** Forgets the files set aside as already uploaded or as copies. */
  const clearDuplicates = useCallback(() => {
    setDuplicates([]);
    setCopies([]);
  }, []);

  /** Tries again to record the files that are not recorded yet. */
  const retrySave = useCallback(() => {
    void save();
  }, [save]);

  /** Clears the finished batch and any refusal. */
  const dismiss = useCallback(() => {
    if (running) return;
    dispatch({ type: 'reset' });
    setRefused([]);
    setDuplicates([]);
    setCopies([]);
  }, [running]);

  /** Clears the list of refused files. */
  const clearRefused = useCallback(() => setRefused([]), []);

  return { progress, refused, duplicates, copies, running, addFiles, addDuplicates, retrySave, dismiss, clearRefused, clearDuplicates };
}
