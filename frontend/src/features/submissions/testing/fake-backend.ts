import { delay, http, HttpResponse } from 'msw';
import { server } from '../../../testing/server';
import type { CsvPreview, Submission, SubmissionsAssignment, SubmissionStatus } from '../api/types';
import { readResultSummaries } from '../lib/function-results';
import { sortSubmissions, type SortColumn } from '../lib/sort';

const IN_PROGRESS_STATUSES = ['grading', 'rubric-grading', 'annotating'];

/** A submission's status bucket, as the server's result.Bucket. */
function bucket(s: Submission, status: string | undefined): string {
  if (s.status === 'failed') return 'failed';
  if (s.status !== 'ready') return 'reading';
  if (status === undefined) return 'ungraded';
  if (status === 'failed') return 'failed';
  if (IN_PROGRESS_STATUSES.includes(status)) return 'grading';
  if (status === 'reviewed') return 'reviewed';
  if (status === 'graded' || status === 'annotated') return 'graded';
  return 'ungraded';
}

/** The assignment the fake backend serves unless told otherwise. */
export const ASSIGNMENT_ID = 'a1111111-1111-4111-8111-111111111111';

/** Where the fake store takes uploads; signed URLs are this plus the key and a signature. */
export const BLOB_BASE = 'http://localhost:3000/blob/';

/** A call the fake backend received. */
export interface Call {
  path: string;
  body: Record<string, unknown>;
}

/** A submission with sensible defaults. */
export function submission(id: string, name: string, overrides: Partial<Submission> = {}): Submission {
  return {
    _id: id,
    assignmentId: ASSIGNMENT_ID,
    name,
    location: `assignments/${ASSIGNMENT_ID}/submissions/0000-${name}`,
    studentName: '',
    studentEmail: '',
    submissionRole: 'teacher',
    source: 'upload',
    status: 'ready',
    error: '',
    doubtfulPages: [],
    preview: `The text of ${name}`,
    pageCount: 1,
    isHandWritten: false,
    attempt: 1,
    previousSubmissionId: null,
    contentHash: '',
    createdAt: '2026-03-01T10:00:00Z',
    updatedAt: '2026-03-01T10:00:00Z',
    ...overrides,
  };
}

/** A function result as the fake backend keeps it. */
export type FakeResult = { _id: string; submission: string } & Record<string, unknown>;

/** What the fake backend holds. */
export interface FakeState {
  submissions: Submission[];
  functionResults: FakeResult[];
}

const IN_PROGRESS: Record<string, string> = { grade: 'grading', prompt: 'grading', 'rubric-feedback': 'rubric-grading', feedback: 'annotating' };

/** Options for {@link fakeBackend}. */
export interface FakeOptions {
  assignment?: Partial<SubmissionsAssignment> & { name?: string };
  submissions?: Submission[];
  /** The assignment's function results (`submission` links each to its submission). */
  functionResults?: FakeResult[];
  /** Changes the state before each `assignment/get` answers, given how many came before (0 first). */
  beforeGet?: (state: FakeState, previousGets: number) => void;
  /** Answers `s3-upload` for a file name (after the folder) instead of signing it. */
  signUpload?: (fileName: string) => Response | undefined;
  /** Answers the PUT of a key (after the folder) instead of storing it; may wait first. */
  putFile?: (key: string) => Promise<Response | undefined> | Response | undefined;
  /** Answers `preview-csv`. */
  previewCsv?: (csvLocation: string) => Response | CsvPreview;
  /** Answers `update-submissions-csv` (default: one ready submission per row). */
  importCsv?: (body: Record<string, unknown>) => Response | undefined;
  /** Makes a write path (e.g. 'submission/update') answer this error. */
  failing?: Record<string, { status: number; message: string }>;
  /** What `submission/get` answers as a submission's text and pages (default: one line). */
  texts?: Record<string, { text: string; pages: { text: string; source: string; confidence?: number; warning?: string }[] }>;
  /** The status new uploads get. */
  newStatus?: SubmissionStatus;
}

/** An API error body. */
export function apiError(status: number, message: string, code = 'invalid') {
  return HttpResponse.json({ error: { code, message } }, { status });
}

/**
 * An in-memory backend for the submissions area of one assignment: `assignment/get` lists what
 * the writes leave. Every call (and every PUT, as path `PUT <key>`) is recorded in order.
 */
export function fakeBackend(options: FakeOptions = {}) {
  const assignment = { _id: ASSIGNMENT_ID, name: 'Causes of WW1', type: 'grade', isHandWritten: false, provideInstantFeedback: false, ...options.assignment };
  const state: FakeState = {
    submissions: structuredClone(options.submissions ?? []),
    functionResults: structuredClone(options.functionResults ?? []),
  };
  let gets = 0;
  const calls: Call[] = [];
  let nextId = 1;
  let nextKey = 1;
  const folder = `assignments/${assignment._id}/submissions/`;
  /** The class's version: it moves with every change of its submissions or results. */
  const classVersion = () => `v${hash(JSON.stringify([state.submissions, state.functionResults]))}`;

  const post = (path: string, handle: (body: Record<string, unknown>) => unknown) =>
    http.post(`/api/v1/${path}`, async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      calls.push({ path, body });
      const failure = options.failing?.[path];
      if (failure) return apiError(failure.status, failure.message);
      const result = handle(body);
      return result instanceof Response ? result : HttpResponse.json({ data: result });
    });

  server.use(
    post('db/assignment/get', () => {
      options.beforeGet?.(state, gets++);
      return {
        assignment: { ...assignment, submissions: state.submissions.map((s) => ({ _id: s._id })) },
        functionResults: structuredClone(state.functionResults),
        submissions: structuredClone(state.submissions),
      };
    }),
    http.post('/api/v1/db/assignment/submission-rows', async ({ request }) => {
      // As the server: a read that sends the version of a class nothing changed in since gets a
      // 304 with no body (here the version is the class's content).
      const version = classVersion();
      if (request.headers.get('If-None-Match') === `"${version}"` && !options.failing?.['db/assignment/submission-rows']) {
        calls.push({ path: 'db/assignment/submission-rows', body: (await request.json()) as Record<string, unknown> });
        return new HttpResponse(null, { status: 304, headers: { ETag: `"${version}"` } });
      }
      return undefined;
    }),
    post('db/assignment/submission-rows', (body) => {
      const results = readResultSummaries(state.functionResults);
      const questionsAdded = (id: string) => state.functionResults.some((fr) => fr.submission === id && fr.questionsAdded === true);
      const counts: Record<string, number> = { reading: 0, ungraded: 0, grading: 0, graded: 0, reviewed: 0, failed: 0 };
      const search = String(body.search ?? '').trim().toLowerCase();
      const status = String(body.status ?? 'all');
      const matching = state.submissions.filter((s) => {
        const b = bucket(s, results.get(s._id)?.status);
        counts[b]++;
        if (status !== 'all' && b !== status) return false;
        return !search || [s.name, s.studentName, s.studentEmail].some((t) => t.toLowerCase().includes(search));
      });
      const column = String(body.sort ?? 'submitted');
      const sorted =
        column === 'submitted'
          ? body.order === 'desc' ? [...matching].reverse() : matching
          : sortSubmissions(matching, { column: column as SortColumn, direction: body.order === 'desc' ? 'desc' : 'asc' }, results);
      const offset = Number(body.offset ?? 0);
      const limit = Number(body.limit ?? 50);
      return {
        rows: sorted.slice(offset, offset + limit).map((s) => ({
          ...structuredClone(s),
          bucket: bucket(s, results.get(s._id)?.status),
          result: structuredClone(state.functionResults.find((fr) => fr.submission === s._id) ?? null),
        })),
        total: sorted.length,
        counts,
        classSize: state.submissions.length,
        inProgress: counts.reading + counts.grading > 0,
        // As the server: the whole class's outdated results, whatever the page, filter and search.
        outdatedIds: state.submissions.filter((s) => results.get(s._id)?.outdated).map((s) => s._id),
        // Those graded before a question was added (the stored result's questionsAdded).
        questionsAddedIds: state.submissions.filter((s) => questionsAdded(s._id)).map((s) => s._id),
        questionsAddedReviewed: state.submissions.filter((s) => questionsAdded(s._id) && results.get(s._id)?.status === 'reviewed').length,
        classroomSubmissions: state.submissions.filter((s) => s.source === 'google').length,
        outdatedReviewed: state.submissions.filter((s) => results.get(s._id)?.outdated && results.get(s._id)?.status === 'reviewed').length,
        ...(body.ids ? { submissionIds: sorted.map((s) => s._id), reviewedIds: sorted.filter((s) => results.get(s._id)?.status === 'reviewed').map((s) => s._id), unreadableIds: sorted.filter((s) => s.status === 'failed').map((s) => s._id) } : {}),
        version: classVersion(),
      };
    }),
    post('lambda/runFunctionOnMany', (body) => {
      const ids = body.submissionIds as string[];
      if (ids.length === 0) return apiError(400, 'Please choose at least one submission to grade.');
      const status = IN_PROGRESS[assignment.type] ?? 'grading';
      let skipped = 0;
      for (const id of ids) {
        const found = state.functionResults.find((fr) => fr.submission === id);
        // As the server: a result the teacher reviewed is left alone unless asked.
        if (found?.status === 'reviewed' && body.overwriteReviewed !== true) skipped++;
        else if (found) Object.assign(found, { status, error: '' });
        else state.functionResults.push({ _id: `fr-${id}`, submission: id, status, error: '' });
      }
      return { functionResults: structuredClone(state.functionResults.filter((fr) => ids.includes(fr.submission))), skipped };
    }),
    post('s3-upload', (body) => {
      const fileName = String(body.fileName);
      const name = fileName.startsWith(folder) ? fileName.slice(folder.length) : fileName;
      const override = options.signUpload?.(name);
      if (override) return override;
      const key = `${folder}${String(nextKey++).padStart(4, '0')}-${name}`;
      return { signedUrl: `${BLOB_BASE}${key}?sig=secret&size=${String(body.fileSize)}`, fileUrl: BLOB_BASE + key, key };
    }),
    http.put(`${BLOB_BASE}*`, async ({ request }) => {
      const url = new URL(request.url);
      const key = decodeURIComponent(url.pathname.replace(/^\/blob\//, ''));
      calls.push({ path: `PUT ${key}`, body: { contentType: request.headers.get('content-type'), size: (await request.arrayBuffer()).byteLength } });
      const override = await options.putFile?.(key.replace(/^.*\/\d{4}-/, ''));
      if (override) return override;
      await delay(5);
      return new HttpResponse(null, { status: 200 });
    }),
    post('db/assignment/update-submissions', (body) => {
      const added = (body.submissions as { name: string; location?: string; error?: string }[]).map((s) =>
        s.error
          ? submission(`s-new-${nextId++}`, s.name, { location: '', status: 'failed', error: s.error, preview: '', pageCount: 0 })
          : submission(`s-new-${nextId++}`, s.name, { location: s.location ?? '', status: options.newStatus ?? 'queued', preview: '', pageCount: 0 }),
      );
      state.submissions.push(...added);
      return { submissions: added, functionResults: [] };
    }),
    post('db/submission/get', (body) => {
      const found = state.submissions.find((s) => s._id === body.submissionId);
      if (!found) return apiError(404, 'Submission not found', 'not_found');
      return { submission: { ...found, ...(options.texts?.[found._id] ?? { text: `Full text of ${found.name}`, pages: [] }) } };
    }),
    post('db/submission/update', (body) => {
      const found = state.submissions.find((s) => s._id === body.submissionId);
      if (!found) return apiError(404, 'Submission not found', 'not_found');
      Object.assign(found, body.submission);
      return { submission: found };
    }),
    post('db/assignment/delete-submission-and-function-result', (body) => {
      const before = state.submissions.length;
      state.submissions = state.submissions.filter((s) => s._id !== body.submissionId);
      return { deleted: before - state.submissions.length };
    }),
    post('db/assignment/delete-submissions-and-function-results', (body) => {
      const ids = new Set(body.submissionIds as string[]);
      const before = state.submissions.length;
      state.submissions = state.submissions.filter((s) => !ids.has(s._id));
      return { deleted: before - state.submissions.length };
    }),
    post('db/assignment/preview-csv', (body) => {
      const answer = options.previewCsv?.(String(body.csvLocation));
      if (!answer) return apiError(400, 'Error reading CSV file');
      return answer;
    }),
    post('db/assignment/update-submissions-csv', (body) => {
      const override = options.importCsv?.(body);
      if (override) return override;
      const added = [submission(`s-csv-${nextId++}`, 'Ann Lee', { source: 'csv', studentName: 'Ann Lee', studentEmail: 'ann@school.org' })];
      state.submissions.push(...added);
      return { submissions: added, functionResults: [], imported: 3 };
    }),
  );

  return {
    state,
    calls,
    /** The bodies sent to `path`, in order. */
    bodies: (path: string) => calls.filter((c) => c.path === path).map((c) => c.body),
    /** Paths of the calls, in order. */
    paths: () => calls.map((c) => c.path),
  };
}

/** A short hash of a string (FNV-1a), for the fake class's version. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36);
}
