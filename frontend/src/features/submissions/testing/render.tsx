import { renderOnAssignmentPage } from '../../../testing/assignment-page';
import type { SubmissionsAssignment } from '../api/types';
import { SubmissionsPanel } from '../components/SubmissionsPanel';
import { submissionsRefetchInterval } from '../lib/polling';

interface AssignmentData {
  assignment: SubmissionsAssignment;
  functionResults: unknown[];
  submissions: unknown[];
}

/** Renders the submissions panel on a stand-in assignment page at `path`, polled as the page polls. */
export function renderSubmissions(path: string, { questions = [] as string[] } = {}) {
  return renderOnAssignmentPage<AssignmentData>(
    path,
    (data, queryKey) => (
      <SubmissionsPanel
        assignment={data.assignment}
        submissions={data.submissions}
        classSize={Array.isArray((data.assignment as { submissions?: unknown }).submissions) ? ((data.assignment as { submissions?: unknown[] }).submissions ?? []).length : 0}
        questions={questions}
        assignmentQueryKey={queryKey}
      />
    ),
    { refetchInterval: (data) => submissionsRefetchInterval(data?.submissions, data?.functionResults) },
  );
}
