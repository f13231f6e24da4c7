import { http, HttpResponse } from 'msw';
import type { Session } from '../features/auth/api/get-session';
import type { AuthProviders } from '../features/auth/api/get-providers';
import type { TeamMembers } from '../features/team/api/get-members';
import type { CurrentUser } from '../lib/current-user';

/** CSRF token the default handlers hand out. */
export const TEST_CSRF_TOKEN = 'test-csrf-token';

/** The signed-in teacher of the default handlers. */
export const TEST_SESSION: Session = {
  user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@school.org', image: null, teamId: 't1' },
  expires: '2999-01-01T00:00:00.000Z',
};

/** The default user (`user/get`): Ada, owner of "Year 9 English". */
export const TEST_USER: CurrentUser = {
  _id: 'u1',
  name: 'Ada Lovelace',
  email: 'ada@school.org',
  image: null,
  team: { _id: 't1', name: 'Year 9 English', ownerId: 'u1', assignments: [], rubrics: [], folders: [] },
  functions: [],
};

/** The default team: Ada (owner) and Grace, no pending invitations. */
export const TEST_MEMBERS: TeamMembers = {
  members: [
    { _id: 'u1', name: 'Ada Lovelace', email: 'ada@school.org', image: null, isOwner: true },
    { _id: 'u2', name: 'Grace Hopper', email: 'grace@school.org', image: null, isOwner: false },
  ],
  invites: [],
};

/** Builds one provider entry as `/api/auth/providers` lists it. */
export function provider(id: string, name: string, type: 'oauth' | 'credentials' | 'email' = 'oauth') {
  return {
    id,
    name,
    type,
    signinUrl: `http://localhost:3000/api/auth/signin/${id}`,
    callbackUrl: `http://localhost:3000/api/auth/callback/${id}`,
  };
}

/** The default providers: the development sign-in only. */
export const TEST_PROVIDERS: AuthProviders = { credentials: provider('credentials', 'Development sign-in', 'credentials') };

/** A session handler answering `session`, or `{}` (signed out) for null. */
export function sessionHandler(session: Session | null) {
  return http.get('/api/auth/session', () => HttpResponse.json(session ?? {}));
}

/** Handlers every test starts with (signed in as Ada); override per test with `server.use(...)`. */
export const handlers = [
  http.get('/api/auth/csrf', () => HttpResponse.json({ csrfToken: TEST_CSRF_TOKEN })),
  sessionHandler(TEST_SESSION),
  http.get('/api/auth/providers', () => HttpResponse.json(TEST_PROVIDERS)),
  http.get('/api/v1/db/user/get', () => HttpResponse.json({ data: { user: TEST_USER } })),
  http.get('/api/v1/db/team/members', () => HttpResponse.json({ data: TEST_MEMBERS })),
  http.get('/api/v1/db/notification/list', () => HttpResponse.json({ data: { notifications: [] } })),
  http.get('/api/v1/app-config', () => HttpResponse.json({ data: { demoModel: false } })),
  // Every assignment page's submissions show their release state (none released).
  http.post('/api/v1/db/assignment/release/list', () => HttpResponse.json({ data: { releases: [] } })),
  // Every assignment page shows its student link card.
  http.post('/api/v1/db/assignment/student-link/get', () =>
    HttpResponse.json({ data: { enabled: true, token: 'test-link-token' } }),
  ),
  // Every assignment page asks for its LMS side (docs/lti.md); no LMS links these assignments.
  http.post('/api/v1/lti/assignment/status', () => HttpResponse.json({ data: { lti: { linked: false, scores: [] } } })),
  // Every assignment page shows its Google Classroom button; this server has no Google client.
  http.post('/api/v1/google/classroom/status', () =>
    HttpResponse.json({ data: { configured: false, connected: false, reason: 'Google sign-in is not configured on this server' } }),
  ),
];
