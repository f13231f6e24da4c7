import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazy-page';
import type { ViewResultPageProps } from './components/ViewResultPage';

/**
 * The student pages, which need no sign-in: they belong outside RequireAuth and the teacher's
 * app layout, and bring their own simple layout. `resultPage` is how the result page draws a
 * finished result (the app composes it from the results feature). The layout and each page load
 * from their own chunks: a student downloads none of the teacher's screens.
 */
export function createStudentRoutes(resultPage: ViewResultPageProps = {}): RouteObject[] {
  return [
    {
      lazy: lazyPage(() => import('./components/StudentLayout'), (m) => m.StudentLayout),
      children: [
        { path: 'submit/:token', lazy: lazyPage(() => import('./components/SubmitPage'), (m) => m.SubmitPage) },
        { path: 'submit/:token/success', lazy: lazyPage(() => import('./components/SubmitSuccessPage'), (m) => m.SubmitSuccessPage) },
        {
          path: 'student/view-result/:assignmentId/:submissionId',
          lazy: lazyPage(
            () => import('./components/ViewResultPage'),
            ({ ViewResultPage }) => () => <ViewResultPage {...resultPage} />,
          ),
        },
        // A result the teacher released: its private link opens it from any device.
        {
          path: 'results/:token',
          lazy: lazyPage(
            () => import('./components/ReleasedResultPage'),
            ({ ReleasedResultPage }) => () => <ReleasedResultPage {...resultPage} />,
          ),
        },
      ],
    },
  ];
}

/** The student pages with a result page that shows a finished result's text only. */
export const studentRoutes: RouteObject[] = createStudentRoutes();
