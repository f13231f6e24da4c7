import type { ReactNode } from 'react';
import { renderRoutes } from '../../../testing/render-routes';
import type { FunctionResult } from '../api/types';
import { normalizeFunctionResult } from '../lib/normalize';

/** Test helpers of the results feature (used by its tests only). */

/** A finished result of submission `s1`; override fields per test. */
export function resultFixture(overrides: Partial<FunctionResult> = {}): FunctionResult {
  return {
    ...normalizeFunctionResult({
      _id: 'r1',
      submission: 's1',
      status: 'graded',
      createdAt: '2026-03-01T10:00:00Z',
      updatedAt: '2026-03-01T10:00:00Z',
    }),
    ...overrides,
  };
}

/** Renders `ui` with the app's theme, toast and a fresh query cache. */
export function renderResultUi(ui: ReactNode) {
  return renderRoutes([{ path: '*', element: ui }], { initialEntries: ['/'] });
}
