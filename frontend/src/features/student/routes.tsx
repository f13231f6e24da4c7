import type { RouteObject } from 'react-router';
import { StudentLayout } from './components/StudentLayout';
import { SubmitPage } from './components/SubmitPage';
import { SubmitSuccessPage } from './components/SubmitSuccessPage';
import { ViewResultPage } from './components/ViewResultPage';

/**
 * The student pages, which need no sign-in: they belong outside RequireAuth and the teacher's
 * app layout, and bring their own simple layout.
 */
export const studentRoutes: RouteObject[] = [
  {
    element: <StudentLayout />,
    children: [
      { path: 'submit/:token', element: <SubmitPage /> },
      { path: 'submit/:token/success', element: <SubmitSuccessPage /> },
      { path: 'student/view-result/:assignmentId/:submissionId', element: <ViewResultPage /> },
    ],
  },
];
