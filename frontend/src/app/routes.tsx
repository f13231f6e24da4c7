import { Navigate, type RouteObject } from 'react-router';
import { assignmentRoutes } from './processes';
import { assistantRoutes } from '../features/assistants/routes';
import { RequireAuth } from '../features/auth/components/RequireAuth';
import { SignInPage } from '../features/auth/components/SignInPage';
import { chatRoutes } from '../features/chat/routes';
import { LibraryPage } from '../features/library/components/LibraryPage';
import { operatorRoutes } from '../features/operator';
import { RubricEditorPage, RubricsPage } from '../features/rubrics';
import { AcceptInvitePage } from '../features/team/components/AcceptInvitePage';
import { TeamPage } from '../features/team/components/TeamPage';
import { toolRoutesWithChat } from './routes/ToolRoutes';
import { AppLayout } from './routes/AppLayout';
import { withAssignmentPanels } from './routes/AssignmentRoute';
import { NotFoundPage } from './routes/NotFoundPage';
import { RootLayout } from './routes/RootLayout';
import { RouteErrorPage } from './routes/RouteErrorPage';
import { studentRoutesWithResults } from './routes/StudentResultRoute';
import { SUBMISSION_REVIEW_PATH, SubmissionReviewRoute } from './routes/SubmissionReviewRoute';

/**
 * Every route in Markwell. The root layout (global toast) wraps all pages; the pathless child
 * catches page errors so the toast survives them. Pages under RequireAuth need a session.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      {
        errorElement: <RouteErrorPage />,
        children: [
          { index: true, element: <Navigate to="/library" replace /> },
          { path: 'signin', element: <SignInPage /> },
          ...studentRoutesWithResults,
          {
            element: <RequireAuth />,
            children: [
              {
                element: <AppLayout />,
                children: [
                  { path: 'library', element: <LibraryPage /> },
                  ...withAssignmentPanels(assignmentRoutes),
                  { path: SUBMISSION_REVIEW_PATH, element: <SubmissionReviewRoute /> },
                  { path: 'rubrics', element: <RubricsPage /> },
                  { path: 'rubrics/new', element: <RubricEditorPage /> },
                  { path: 'rubrics/:rubricId', element: <RubricEditorPage /> },
                  ...assistantRoutes,
                  ...chatRoutes,
                  ...toolRoutesWithChat,
                  { path: 'team', element: <TeamPage /> },
                  { path: 'invite/:token', element: <AcceptInvitePage /> },
                  ...operatorRoutes,
                ],
              },
            ],
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];
