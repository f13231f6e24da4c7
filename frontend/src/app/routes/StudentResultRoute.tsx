import { createElement } from 'react';
import type { RouteObject } from 'react-router';
import { lazyComponent } from '../../components/lazy-component';
import { PageSpinner } from '../../components/PageSpinner';
import { createStudentRoutes } from '../../features/student/routes';

/** The type modules' read-only views load only once a finished result is there to draw. */
const StudentResult = lazyComponent(
  () => import('./StudentResult').then((m) => m.StudentResult),
  createElement(PageSpinner, { label: 'Loading your feedback' }),
);

/**
 * The student pages, with a result page that shows a finished result with the results feature's
 * review components, read-only. The app's route tree uses these in place of `studentRoutes`.
 */
export const studentRoutesWithResults: RouteObject[] = createStudentRoutes({
  renderResult: (view) => <StudentResult view={view} />,
});
