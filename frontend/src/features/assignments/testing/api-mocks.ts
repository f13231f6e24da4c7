import { http, HttpResponse, type JsonBodyType } from 'msw';
import { server } from '../../../testing/server';
import type { Assignment, AssignmentFunction, Rubric } from '../api/types';

/** A call the mocked API received. */
export interface RecordedCall {
  path: string;
  body: Record<string, unknown>;
}

/** The id the mocked `assignment/put` hands out first (then -2, -3 …). */
export const NEW_ASSIGNMENT_ID = 'a0000000-0000-4000-8000-000000000001';

/** A rubric with two criteria; the second uses point ranges. */
export const SAMPLE_RUBRIC: Rubric = {
  _id: 'r0000000-0000-4000-8000-000000000001',
  name: 'Persuasive writing',
  createdAt: '2025-01-10T09:00:00Z',
  updatedAt: '2025-01-12T09:00:00Z',
  criteria: [
    {
      criterionDescription: 'Argument',
      levelDescriptions: ['Unclear position', 'Clear position', 'Compelling, well-supported position'],
      useRange: false,
    },
    {
      criterionDescription: 'Evidence',
      levelDescriptions: ['No evidence', 'Some evidence'],
      useRange: true,
      levelRanges: [
        { levelDescriptionsIndex: 0, min: 0, max: 1 },
        { levelDescriptionsIndex: 1, min: 2, max: 4 },
      ],
    },
  ],
};

/** A second rubric with one criterion. */
export const OTHER_RUBRIC: Rubric = {
  _id: 'r0000000-0000-4000-8000-000000000002',
  name: 'Lab report',
  createdAt: '2026-01-02T09:00:00Z',
  updatedAt: '2026-01-02T09:00:00Z',
  criteria: [{ criterionDescription: 'Method', levelDescriptions: ['Missing', 'Complete'], useRange: false }],
};

/** An error body as the API sends it. */
export function apiError(status: number, message: string, code = 'invalid') {
  return HttpResponse.json({ error: { code, message } }, { status });
}

/** Options for {@link mockAuthoringApi}. */
export interface MockOptions {
  rubrics?: Rubric[];
  /** Replaces the `function/put` response, e.g. with a failure. */
  functionPut?: (call: RecordedCall, attempt: number) => Response | undefined;
  /** A definition the server holds although no `function/put` answered with it (a lost response). */
  existingFunction?: (assignmentId: string) => AssignmentFunction | undefined;
  suggestCriteria?: () => Response;
  suggestQuestions?: () => Response;
}

/**
 * Answers the authoring API from memory: creating an assignment and its definition, reading them
 * back, the rubric list and AI assist. Returns the calls it received, in order.
 */
export function mockAuthoringApi(options: MockOptions = {}) {
  const calls: RecordedCall[] = [];
  const assignments = new Map<string, Assignment>();
  const functions = new Map<string, AssignmentFunction>();
  let created = 0;
  let functionPuts = 0;

  const record = async (path: string, request: Request) => {
    const body = (await request.json()) as Record<string, unknown>;
    const call = { path, body };
    calls.push(call);
    return call;
  };
  const ok = (data: JsonBodyType) => HttpResponse.json({ data });

  server.use(
    http.post('/api/v1/db/assignment/put', async ({ request }) => {
      const { body } = await record('assignment/put', request);
      created += 1;
      const _id = NEW_ASSIGNMENT_ID.replace(/1$/, String(created));
      const assignment: Assignment = {
        _id,
        name: String(body.name),
        type: body.type as Assignment['type'],
        isHandWritten: Boolean(body.isHandWritten),
        provideInstantFeedback: Boolean(body.provideInstantFeedback),
        folderId: null,
        classSummary: null,
        submissions: [],
        createdAt: '2025-02-01T10:00:00Z',
        updatedAt: '2025-02-01T10:00:00Z',
      };
      assignments.set(_id, assignment);
      return ok({ assignment });
    }),
    http.post('/api/v1/db/assignment/update', async ({ request }) => {
      const { body } = await record('assignment/update', request);
      const existing = assignments.get(String(body.id));
      if (!existing) return apiError(404, 'Not found', 'not_found');
      const assignment = { ...existing, name: String(body.name) };
      assignments.set(existing._id, assignment);
      return ok({ assignment });
    }),
    http.post('/api/v1/db/function/put', async ({ request }) => {
      const call = await record('function/put', request);
      functionPuts += 1;
      const override = options.functionPut?.(call, functionPuts);
      if (override) return override;
      const { assignmentId, ...definition } = call.body;
      const assignment = assignments.get(String(assignmentId));
      const fn = { _id: `f-${String(assignmentId)}`, assignmentId, type: assignment?.type, ...definition } as AssignmentFunction;
      functions.set(String(assignmentId), fn);
      return ok({ function: fn });
    }),
    http.post('/api/v1/db/function/update', async ({ request }) => {
      const { body } = await record('function/update', request);
      const { assignmentId, functionId, ...definition } = body;
      const assignment = assignments.get(String(assignmentId));
      const fn = { _id: String(functionId), assignmentId, type: assignment?.type, ...definition } as AssignmentFunction;
      functions.set(String(assignmentId), fn);
      return ok({ function: fn });
    }),
    http.post('/api/v1/db/assignment/history', () => ok({ history: [] })),
    http.post('/api/v1/db/assignment/get', async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      const assignment = assignments.get(String(body.assignmentId));
      if (!assignment) return apiError(404, 'Assignment not found', 'not_found');
      return ok({ assignment, functionResults: [] });
    }),
    http.post('/api/v1/db/function/get', async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      const fn = functions.get(String(body.assignmentId)) ?? options.existingFunction?.(String(body.assignmentId));
      if (!fn) return apiError(404, 'Not found', 'not_found');
      return ok({ function: fn });
    }),
    http.get('/api/v1/db/rubric/list', () => ok({ rubrics: options.rubrics ?? [SAMPLE_RUBRIC, OTHER_RUBRIC] })),
    http.post('/api/v1/ai-assist/suggest-criteria', async ({ request }) => {
      await record('ai-assist/suggest-criteria', request);
      return (
        options.suggestCriteria?.() ??
        ok({
          criteria: [
            { description: 'Names at least two causes', points: 2 },
            { description: 'Explains how they connect', points: 3 },
          ],
        })
      );
    }),
    http.post('/api/v1/ai-assist/suggest-questions', async ({ request }) => {
      await record('ai-assist/suggest-questions', request);
      return (
        options.suggestQuestions?.() ??
        ok({
          questionsAndCrits: [
            { question: 'Explain the causes of the First World War.', criteria: [{ description: 'Names the alliances', points: 2 }] },
            { question: 'Which cause mattered most?', criteria: [{ description: 'Takes a clear position', points: 1 }] },
          ],
        })
      );
    }),
  );
  return { calls, paths: () => calls.map((c) => c.path) };
}

/** Answers `assignment/get` and `function/get` for one assignment. */
export function mockAssignment(assignment: Assignment, fn: AssignmentFunction | null, rubrics: Rubric[] = [SAMPLE_RUBRIC]) {
  const calls: RecordedCall[] = [];
  server.use(
    http.post('/api/v1/db/assignment/history', () => HttpResponse.json({ data: { history: [] } })),
    http.post('/api/v1/db/assignment/get', async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      calls.push({ path: 'assignment/get', body });
      if (body.assignmentId !== assignment._id) return apiError(404, 'Assignment not found', 'not_found');
      return HttpResponse.json({ data: { assignment, functionResults: [] } });
    }),
    http.post('/api/v1/db/function/get', async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      calls.push({ path: 'function/get', body });
      if (!fn) return apiError(404, 'Not found', 'not_found');
      return HttpResponse.json({ data: { function: fn } });
    }),
    http.post('/api/v1/db/assignment/update', async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      calls.push({ path: 'assignment/update', body });
      assignment = { ...assignment, name: String(body.name) };
      return HttpResponse.json({ data: { assignment } });
    }),
    http.get('/api/v1/db/rubric/list', () => HttpResponse.json({ data: { rubrics } })),
  );
  return calls;
}
