import type { RouteObject } from 'react-router';
import { StudentLayout } from './components/StudentLayout';
import { ReleasedResultPage } from './components/ReleasedResultPage';
import { SubmitPage } from './components/SubmitPage';
import { SubmitSuccessPage } from './components/SubmitSuccessPage';
import { ViewResultPage, type ViewResultPageProps } from './components/ViewResultPage';

/**
 * The student pages, which need no sign-in: they belong outside RequireAuth and the teacher's
 * app layout, and bring their own simple layout. `resultPage` is how the result page draws a
 * finished result (the app composes it from the results feature).
 */
export function createStudentRoutes(resultPage: ViewResultPageProps = {}): RouteObject[] {
  return [
    {
      element: <StudentLayout />,
      children: [
        { path: 'submit/:token', element: <SubmitPage /> },
        { path: 'submit/:token/success', element: <SubmitSuccessPage /> },
        { path: 'student/view-result/:assignmentId/:submissionId', element: <ViewResultPage {...resultPage} /> },
        // A result the teacher released: its private link opens it from any device.
        { path: 'results/:token', element: <ReleasedResultPage {...resultPage} /> },
      ],
    },
  ];
}

/** The student pages with a result page that shows a finished result's text only. */
export const studentRoutes: RouteObject[] = createStudentRoutes();
