import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { classroomKeys } from './keys';
import { readList, readText } from './read';
import type { Passback, PassbackState } from './types';

/** What `google/classroom/passback` takes. */
export interface StartPassbackInput {
  assignmentId: string;
  /** Markwell submission ids; empty sends every submission imported from Classroom. */
  submissionIds: string[];
  grade: 'draft' | 'assigned';
  returnToStudents: boolean;
}

const STATES: readonly PassbackState[] = ['pending', 'sent', 'returned', 'failed'];

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** Reads a run leniently; null for anything that is not one. */
export function readPassback(raw: unknown): Passback | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const r = raw as Record<string, unknown>;
  const status = r.status === 'queued' || r.status === 'running' || r.status === 'done' ? r.status : 'done';
  return {
    _id: readText(r, '_id'),
    status,
    grade: r.grade === 'assigned' ? 'assigned' : 'draft',
    returnToStudents: r.returnToStudents === true,
    done: num(r.done) ?? 0,
    total: num(r.total) ?? 0,
    students: readList(r.students, (s) => ({
      submissionId: readText(s, 'submissionId'),
      studentName: readText(s, 'studentName'),
      state: STATES.find((st) => st === s.state) ?? 'pending',
      grade: num(s.grade),
      error: readText(s, 'error'),
      at: typeof s.at === 'string' ? s.at : null,
    })),
  };
}

/** Starts sending grades to Classroom (`POST google/classroom/passback`, with no comment: Classroom's API has none). */
export async function startPassback(input: StartPassbackInput): Promise<Passback | null> {
  const data = await api.post<{ passback?: unknown } | undefined>('/api/v1/google/classroom/passback', { ...input, comment: false });
  return readPassback(data?.passback);
}

/** The assignment's latest run, or null (`POST google/classroom/passback/get`). */
export async function getPassback(assignmentId: string, options: { signal?: AbortSignal } = {}): Promise<Passback | null> {
  const data = await api.post<{ passback?: unknown } | undefined>('/api/v1/google/classroom/passback/get', { assignmentId }, options);
  return readPassback(data?.passback);
}

/** How often a run in progress is asked about. */
export const PASSBACK_POLL_MS = 1500;

/** Query options for an assignment's latest run, polled while it works. */
export function passbackQueryOptions(assignmentId: string) {
  return queryOptions({
    queryKey: classroomKeys.passback(assignmentId),
    queryFn: ({ signal }) => getPassback(assignmentId, { signal }),
    refetchInterval: (query) => (query.state.data && query.state.data.status !== 'done' ? PASSBACK_POLL_MS : false),
  });
}

/** The assignment's latest run, polled while it works. */
export function usePassback(assignmentId: string) {
  return useQuery(passbackQueryOptions(assignmentId));
}

/** Starts a run and makes it the assignment's latest. */
export function useStartPassback(assignmentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startPassback,
    onSuccess: (passback) => queryClient.setQueryData(classroomKeys.passback(assignmentId), passback),
  });
}
