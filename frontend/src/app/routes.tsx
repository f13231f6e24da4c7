import { Navigate, type RouteObject } from 'react-router';
import { PageSpinner } from '../components/PageSpinner';
import { assistantRoutes } from '../features/assistants/routes';
import { RequireAuth } from '../features/auth/components/RequireAuth';
import { chatRoutes } from '../features/chat/routes';
import { ltiRoutes } from '../features/lti/routes';
import { operatorRoutes } from '../features/operator/routes';
import { lazyPage } from '../lib/lazy-page';
import { assignmentRoutes } from './processes/routes';
import { withAssignmentPanels } from './routes/assignment-panels';
import { NotFoundPage } from './routes/NotFoundPage';
import { RootLayout } from './routes/RootLayout';
import { RouteErrorPage } from './routes/RouteErrorPage';
import { studentRoutesWithResults } from './routes/StudentResultRoute';
import { SUBMISSION_REVIEW_PATH } from './routes/paths';
import { toolRoutesWithChat } from './routes/ToolRoutes';

/** What the first load shows while a page's code arrives: the session's spinner, so one spinner turns into the page. */
function FirstLoad() {
  return <PageSpinner fullPage label="Loading" />;
}

/**
 * Every route in Markwell. The root layout (global toast) wraps all pages; the pathless child
 * catches page errors so the toast survives them. Pages under RequireAuth need a session.
 *
 * Each page (and the signed-in app layout) loads from its own chunk (`lazy`): the first visit
 * downloads the shell here plus the chunks of the route it opens, fetched in parallel
 * (docs/performance.md, "First load"). While a later navigation loads its chunk the current page
 * stays, with a progress bar in the app bar.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      {
        errorElement: <RouteErrorPage />,
        HydrateFallback: FirstLoad,
        children: [
          { index: true, element: <Navigate to="/library" replace /> },
          { path: 'signin', lazy: lazyPage(() => import('../features/auth/components/SignInPage'), (m) => m.SignInPage) },
          ...studentRoutesWithResults,
          {
            element: <RequireAuth />,
            children: [
              {
                lazy: lazyPage(() => import('./routes/AppLayout'), (m) => m.AppLayout),
                children: [
                  { path: 'library', lazy: lazyPage(() => import('../features/library/components/LibraryPage'), (m) => m.LibraryPage) },
                  ...withAssignmentPanels(assignmentRoutes),
                  { path: SUBMISSION_REVIEW_PATH, lazy: lazyPage(() => import('./routes/SubmissionReviewRoute'), (m) => m.SubmissionReviewRoute) },
                  { path: 'rubrics', lazy: lazyPage(() => import('../features/rubrics/components/RubricsPage'), (m) => m.RubricsPage) },
                  { path: 'rubrics/new', lazy: lazyPage(() => import('../features/rubrics/components/RubricEditorPage'), (m) => m.RubricEditorPage) },
                  { path: 'rubrics/:rubricId', lazy: lazyPage(() => import('../features/rubrics/components/RubricEditorPage'), (m) => m.RubricEditorPage) },
                  ...assistantRoutes,
                  ...chatRoutes,
                  ...toolRoutesWithChat,
                  { path: 'team', lazy: lazyPage(() => import('../features/team/components/TeamPage'), (m) => m.TeamPage) },
                  { path: 'invite/:token', lazy: lazyPage(() => import('../features/team/components/AcceptInvitePage'), (m) => m.AcceptInvitePage) },
                  ...operatorRoutes,
                  ...ltiRoutes,
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
