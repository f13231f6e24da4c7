import { http, HttpResponse } from 'msw';
import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { renderRoutes } from '../../../testing/render-routes';
import { server } from '../../../testing/server';
import { LibraryPage } from '../components/LibraryPage';
import type { Folder, Library, LibraryAssignment, LibraryRubric, ShareNotification } from '../types';

/** The team id the fake backend hands out. */
export const TEAM_ID = 'team-1';

function OtherPage() {
  return <h1>Other page {useLocation().pathname}</h1>;
}

/** Renders `ui` (default: the library page at /library) with the toast, a router and a fresh cache. */
export function renderLibrary(ui: ReactNode = <LibraryPage />, path = '/library') {
  return renderRoutes(
    [
      { path: '/library', element: ui },
      { path: '*', element: <OtherPage /> },
    ],
    { initialEntries: [path] },
  );
}

/** An assignment with sensible defaults. */
export function assignment(id: string, name: string, type: LibraryAssignment['type'], updatedAt = '2026-03-01T10:00:00Z'): LibraryAssignment {
  return { _id: id, name, type, isHandWritten: false, provideInstantFeedback: false, folderId: null, submissions: [], createdAt: updatedAt, updatedAt };
}

/** A rubric with sensible defaults. */
export function rubric(id: string, name: string): LibraryRubric {
  return { _id: id, name, criteria: [{}, {}], createdAt: '2026-02-01T10:00:00Z', updatedAt: '2026-02-01T10:00:00Z' };
}

/** A request the fake backend received. */
export interface Call {
  path: string;
  body: unknown;
}

/**
 * A small in-memory backend for the library's calls: it keeps folders, assignments and rubrics,
 * applies the library's writes to them and records every write. `fail` makes a route answer 500.
 */
export function fakeBackend(initial: Library, options: { notifications?: ShareNotification[] } = {}) {
  const state: Library = structuredClone(initial);
  const calls: Call[] = [];
  const failing = new Set<string>();
  let nextId = 1;
  const notifications = options.notifications ?? [];

  const write = (path: string, handle: (body: Record<string, unknown>) => unknown) =>
    http.post(`/api/v1/db/${path}`, async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      calls.push({ path, body });
      if (failing.has(path)) return HttpResponse.json({ error: { code: 'internal', message: 'Something broke' } }, { status: 500 });
      return HttpResponse.json({ data: handle(body) });
    });

  server.use(
    http.get('/api/v1/db/user/get', () =>
      HttpResponse.json({ data: { user: { _id: 'u1', name: 'Ada', email: 'ada@school.org', team: { _id: TEAM_ID } } } }),
    ),
    http.get('/api/v1/db/library/get', () => HttpResponse.json({ data: structuredClone(state) })),
    http.get('/api/v1/db/notification/list', () => HttpResponse.json({ data: { notifications } })),
    write('team/create-folder', (body) => {
      const folder: Folder = { _id: `f-new-${nextId++}`, name: String(body.folderName), assignments: [] };
      state.folders.push(folder);
      return { folder };
    }),
    write('team/update-folders', (body) => {
      state.folders = (body.newFolders as Folder[]).map((f) => ({ ...f, _id: f._id ?? `f-new-${nextId++}` }));
      return { folders: state.folders };
    }),
    write('team/delete-assignment', (body) => {
      state.assignments = state.assignments.filter((a) => a._id !== body.assignmentId);
      return { success: true };
    }),
    write('team/delete-rubric', (body) => {
      state.rubrics = state.rubrics.filter((r) => r._id !== body.rubricId);
      return { success: true };
    }),
    write('assignment/duplicate', (body) => {
      const source = state.assignments.find((a) => a._id === body.assignmentId)!;
      const copy = { ...source, _id: `copy-${nextId++}`, name: `Copy of ${source.name}` };
      state.assignments.push(copy);
      return { assignment: copy };
    }),
    write('share/assignment', (body) => ({ sharedWith: body.email })),
    write('share/rubric', (body) => ({ sharedWith: body.email })),
    write('notification/copySharedAssignment', () => ({ assignment: {} })),
    write('notification/copySharedRubric', () => ({ rubric: {} })),
    write('notification/dismiss', () => ({ success: true })),
  );

  return {
    state,
    calls,
    /** Makes `path` (e.g. 'team/delete-assignment') answer 500 until `heal` is called. */
    fail: (path: string) => failing.add(path),
    heal: (path: string) => failing.delete(path),
    /** The bodies sent to `path`, in order. */
    bodies: (path: string) => calls.filter((c) => c.path === path).map((c) => c.body),
  };
}
