import type { RouteObject } from 'react-router';
import type { AssignmentWithResults } from '../../features/assignments/api/get-assignment';
import { useAssignmentFunction } from '../../features/assignments/api/get-function';
import { assignmentKeys } from '../../features/assignments/api/keys';
import { AssignmentPage } from '../../features/assignments/components/page/AssignmentPage';
import { StudentLinkCard } from '../../features/student';
import { SubmissionsPanel, submissionsRefetchInterval } from '../../features/submissions';

/** The assignment page's route, which {@link withAssignmentPanels} gives its panels. */
export const ASSIGNMENT_PAGE_PATH = 'assignment/:assignmentId';

function Submissions({ data }: { data: AssignmentWithResults }) {
  const { assignment } = data;
  // The same cached definition the page shows: its top-level questions label the CSV mapping.
  const definition = useAssignmentFunction(assignment._id, assignment.type);
  const questions = definition.data?.questions?.map((q) => q.questionText) ?? [];
  return (
    <SubmissionsPanel
      assignment={assignment}
      submissions={data.submissions}
      functionResults={data.functionResults}
      questions={questions}
      assignmentQueryKey={assignmentKeys.detail(assignment._id)}
    />
  );
}

/**
 * The assignment page with the panels of other features under it: the submissions and the
 * student submission link. The page's one assignment
 * query lists the submissions and is polled every 2 s while any is still being read.
 */
export function AssignmentRoute() {
  return (
    <AssignmentPage
      refetchInterval={(data) => submissionsRefetchInterval(data?.submissions)}
      panels={(data) => (
        <>
          <Submissions data={data} />
          <StudentLinkCard assignmentId={data.assignment._id} />
        </>
      )}
    />
  );
}

/** The assignments feature's routes with its assignment page replaced by {@link AssignmentRoute}. */
export function withAssignmentPanels(routes: RouteObject[]): RouteObject[] {
  return routes.map((route) => (route.path === ASSIGNMENT_PAGE_PATH ? { ...route, element: <AssignmentRoute /> } : route));
}
