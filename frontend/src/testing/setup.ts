import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { clearCsrfToken } from '../lib/api-client';
import { server } from './server';

// A page renders through several queries; on a busy 2-core CI machine the first screen can take
// longer than Testing Library's 1 s default to appear. Waiting longer never hides a wrong screen.
configure({ asyncUtilTimeout: 5000 });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));

afterEach(() => {
  cleanup();
  server.resetHandlers();
  clearCsrfToken();
  vi.useRealTimers();
  document.title = '';
});

afterAll(() => server.close());
