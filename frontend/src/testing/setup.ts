import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { clearCsrfToken } from '../lib/api-client';
import { loadEverything } from '../lib/lazy-page';
import { server } from './server';
import { detachStyleSheets } from './styles';

// A page renders through several queries; on a busy 2-core CI machine the first screen can take
// longer than Testing Library's 1 s default to appear. Waiting longer never hides a wrong screen.
configure({ asyncUtilTimeout: 5000 });

// Emotion's CSS stays out of jsdom's cascade unless a test file asks for it (styles.ts says why).
detachStyleSheets();

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));

// Pages, dialogs and type parts load from chunks of their own in the app (docs/performance.md,
// "First load"); a test file's are loaded before its tests, so they draw at once as before.
beforeAll(loadEverything, 60_000);

afterEach(() => {
  cleanup();
  server.resetHandlers();
  clearCsrfToken();
  vi.useRealTimers();
  document.title = '';
});

afterAll(() => server.close());
