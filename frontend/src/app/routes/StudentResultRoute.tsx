import { lazy, Suspense } from 'react';
import type { RouteObject } from 'react-router';
import { PageSpinner } from '../../components/PageSpinner';
import { createStudentRoutes } from '../../features/student/routes';
import { loadChunk } from '../../lib/lazy-page';

/** The type modules' read-only views load only once a finished result is there to draw. */
const StudentResult = lazy(() => loadChunk(() => import('./StudentResult')).then((m) => ({ default: m.StudentResult })));

/**
 * The student pages, with a result page that shows a finished result with the results feature's
 * review components, read-only. The app's route tree uses these in place of `studentRoutes`.
 */
export const studentRoutesWithResults: RouteObject[] = createStudentRoutes({
  renderResult: (view) => (
    <Suspense fallback={<PageSpinner label="Loading your feedback" />}>
      <StudentResult view={view} />
    </Suspense>
  ),
});
