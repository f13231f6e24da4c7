import { http, HttpResponse } from 'msw';
import { CHANGED_ELSEWHERE_MESSAGE } from '../../features/results/api/update-function-result';
import { server } from '../../testing/server';

/** The assignment the review tests open. */
export const ASSIGNMENT_ID = 'a1111111-1111-4111-8111-111111111111';

/** A call the fake grading backend received. */
export interface Call {
  path: string;
  body: Record<string, unknown>;
}

type Json = Record<string, unknown>;

/** The grade definition: question 1 (with part a) and question 2; 6 points in all. */
export const QUESTIONS = [
  {
    questionText: 'Explain the causes of the war.',
    context: '',
    rubricId: null,
    criteria: [
      { description: 'Names two causes', points: 2 },
      { description: 'Uses evidence', points: 1 },
    ],
    subquestions: [
      {
        questionText: 'Which came first?',
        context: '',
        rubricId: null,
        criteria: [{ description: 'Correct order', points: 1 }],
        subquestions: [],
      },
    ],
  },
  {
    questionText: 'Why did it spread?',
    context: '',
    rubricId: null,
    criteria: [{ description: 'Mentions alliances', points: 2 }],
    subquestions: [],
  },
];

function node(criteria: boolean[], points: number, subanswers: Json[] = [], extra: Json = {}): Json {
  return {
    answerBoxesCoordinates: null,
    answerMedia: [],
    subanswers,
    grade: { points, gradeAdjustment: 0, feedback: '', criteria },
    ...extra,
  };
}

/** A graded grade result of `submissionId`: 4 of 6 (1: names two causes; 2: mentions alliances). */
export function gradedResult(submissionId: string, overrides: Json = {}): Json {
  return {
    _id: `fr-${submissionId}`,
    submission: submissionId,
    status: 'graded',
    error: '',
    feedback: 'A clear answer.',
    highlightedText: '',
    criteriaLevels: [],
    criteriaPoints: [],
    criteriaFeedback: [],
    overallComments: '',
    isBenchmark: false,
    answers: [node([true, false], 2, [node([false], 0)]), node([true], 2)],
    totalPoints: 4,
    maxPoints: 6,
    flags: [],
    droppedHighlights: 0,
    usage: { model: 'gpt-test', calls: 1, promptTokens: 900, completionTokens: 120, costUsd: 0.001 },
    gradedAt: '2026-03-02T10:00:00Z',
    reviewedAt: null,
    createdAt: '2026-03-01T10:00:00Z',
    updatedAt: '2026-03-02T10:00:00Z',
    ...overrides,
  };
}

function submission(id: string, name: string, text: string): Json {
  return {
    _id: id,
    assignmentId: ASSIGNMENT_ID,
    name,
    location: `assignments/${ASSIGNMENT_ID}/submissions/${name}`,
    studentName: '',
    studentEmail: '',
    submissionRole: 'teacher',
    source: 'upload',
    status: 'ready',
    error: '',
    preview: text.slice(0, 200),
    pageCount: 1,
    isHandWritten: false,
    createdAt: '2026-03-01T10:00:00Z',
    updatedAt: '2026-03-01T10:00:00Z',
    text,
    pages: [{ text, source: 'text' }],
  };
}

/** Options of {@link fakeGrading}. */
export interface FakeGradingOptions {
  type?: string;
  /** Results by submission id (default: s1 and s2 graded, s3 reviewed). */
  results?: Record<string, Json>;
  /** Paths (after /api/v1/) that answer 500. */
  failing?: string[];
  /** Changes a result before `functionResult/get` answers, given how many gets came before. */
  beforeResultGet?: (result: Json, previousGets: number) => void;
}

function at(answers: Json[], path: number[]): Json {
  const [first, ...rest] = path;
  return rest.reduce((n, i) => (n.subanswers as Json[])[i], answers[first]);
}

function criterionPoints(path: number[], index: number): number {
  const [first, ...rest] = path;
  const question = rest.reduce((q, i) => q.subquestions[i], QUESTIONS[first] as (typeof QUESTIONS)[number]);
  return question.criteria[index].points;
}

/**
 * A grading backend in memory for the review screen: an assignment of three submissions (ann,
 * ben, cleo) with their texts and results, and the calls that read and change a result. Every
 * call is recorded.
 */
export function fakeGrading(options: FakeGradingOptions = {}) {
  const type = options.type ?? 'grade';
  const submissions = [
    submission('s1', 'ann.pdf', 'Ann: The alliances and militarism caused the war.'),
    submission('s2', 'ben.pdf', 'Ben: Nationalism.'),
    submission('s3', 'cleo.pdf', 'Cleo: An assassination in Sarajevo.'),
  ];
  const results: Record<string, Json> = options.results ?? {
    s1: gradedResult('s1'),
    s2: gradedResult('s2'),
    s3: gradedResult('s3', { status: 'reviewed' }),
  };
  const calls: Call[] = [];
  let resultGets = 0;
  // Every write stamps the result, as the server's updated_at: an edit made from an older result
  // is refused (CHANGED_ELSEWHERE_MESSAGE), as the server refuses it.
  let writes = 0;
  const stamp = (result: Json) => {
    writes += 1;
    result.updatedAt = new Date(Date.UTC(2026, 2, 3, 10, 0, writes)).toISOString();
  };

  const post = (path: string, handle: (body: Json) => unknown) =>
    http.post(`/api/v1/${path}`, async ({ request }) => {
      const body = (await request.json()) as Json;
      calls.push({ path, body });
      if (options.failing?.includes(path)) return HttpResponse.json({ error: { code: 'internal', message: '' } }, { status: 500 });
      const answer = handle(body);
      return answer instanceof Response ? answer : HttpResponse.json({ data: answer });
    });
  const notFound = () => HttpResponse.json({ error: { code: 'not_found', message: 'Not found' } }, { status: 404 });

  server.use(
    post('db/assignment/get', () => ({
      assignment: { _id: ASSIGNMENT_ID, name: 'Causes of WW1', type, isHandWritten: false, provideInstantFeedback: false, submissions: submissions.map((s) => ({ _id: s._id })) },
      submissions: submissions.map(({ text: _t, pages: _p, ...s }) => s),
      functionResults: Object.values(results).map((r) => structuredClone(r)),
    })),
    post('db/function/get', () => ({ function: { _id: 'fn1', assignmentId: ASSIGNMENT_ID, type, questions: QUESTIONS } })),
    post('db/submission/get', (body) => {
      const found = submissions.find((s) => s._id === body.submissionId);
      return found ? { submission: found } : notFound();
    }),
    post('db/functionResult/get', (body) => {
      const result = results[String(body.submissionId)];
      if (!result) return notFound();
      options.beforeResultGet?.(result, resultGets++);
      return { functionResult: structuredClone(result) };
    }),
    post('db/gradeFunction/toggleCriterion', (body) => {
      const result = Object.values(results).find((r) => r._id === body.gradeFunctionId);
      if (!result) return notFound();
      const path = body.questionIndexPath as number[];
      const index = body.criterionIndex as number;
      const grade = at(result.answers as Json[], path).grade as { criteria: boolean[]; points: number };
      grade.criteria[index] = !grade.criteria[index];
      const change = grade.criteria[index] ? criterionPoints(path, index) : -criterionPoints(path, index);
      grade.points += change;
      result.totalPoints = (result.totalPoints as number) + change;
      result.status = 'reviewed'; // a tick makes the result the teacher's
      stamp(result);
      return { totalPointsChange: change };
    }),
    post('db/rubricFeedbackFunctionResult/update', (body) => {
      const result = Object.values(results).find((r) => r._id === body.functionResultId);
      if (!result) return notFound();
      Object.assign(result, body.data);
      stamp(result);
      return { functionResult: structuredClone(result) };
    }),
    post('db/functionResult/update', (body) => {
      const result = results[String(body.submissionId)];
      if (!result) return notFound();
      if (body.updatedAt !== undefined && body.updatedAt !== result.updatedAt) {
        return HttpResponse.json({ error: { code: 'conflict', message: CHANGED_ELSEWHERE_MESSAGE } }, { status: 409 });
      }
      const { functionId: _f, submissionId: _s, ...fields } = body;
      Object.assign(result, fields, { status: body.status ?? 'reviewed' });
      stamp(result);
      return { functionResult: structuredClone(result) };
    }),
    post('lambda/runFunctionOnMany', (body) => {
      for (const id of body.submissionIds as string[]) Object.assign(results[id] ?? {}, { status: 'grading', error: '' });
      return { functionResults: [] };
    }),
  );

  return {
    results,
    calls,
    /** Another tab (or a colleague) saves a change to a submission's result. */
    saveElsewhere: (submissionId: string, change: (result: Json) => void) => {
      change(results[submissionId]);
      stamp(results[submissionId]);
    },
    /** The bodies sent to `path`, in order. */
    bodies: (path: string) => calls.filter((c) => c.path === path).map((c) => c.body),
  };
}

/** The review screen's address for a submission. */
export function reviewPath(submissionId: string): string {
  return `/assignment/${ASSIGNMENT_ID}/submission/${submissionId}`;
}
