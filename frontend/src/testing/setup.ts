import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { clearCsrfToken } from '../lib/api-client';
import { server } from './server';
import { detachStyleSheets } from './styles';

// A page renders through several queries; on a busy 2-core CI machine the first screen can take
// longer than Testing Library's 1 s default to appear. Waiting longer never hides a wrong screen.
configure({ asyncUtilTimeout: 5000 });

// Emotion's CSS stays out of jsdom's cascade unless a test file asks for it (styles.ts says why).
detachStyleSheets();

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));

afterEach(() => {
  cleanup();
  server.resetHandlers();
  clearCsrfToken();
  vi.useRealTimers();
  document.title = '';
});

afterAll(() => server.close());
