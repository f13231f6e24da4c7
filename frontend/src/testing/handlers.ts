import { http, HttpResponse } from 'msw';

/** CSRF token the default handlers hand out. */
export const TEST_CSRF_TOKEN = 'test-csrf-token';

/** Handlers every test starts with; override per test with `server.use(...)`. */
export const handlers = [http.get('/api/auth/csrf', () => HttpResponse.json({ csrfToken: TEST_CSRF_TOKEN }))];
