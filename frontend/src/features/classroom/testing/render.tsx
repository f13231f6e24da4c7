import { renderOnAssignmentPage } from '../../../testing/assignment-page';
import { ClassroomImportButton } from '../components/ClassroomImportButton';

interface AssignmentData {
  assignment: { _id: string; type: string };
  submissions: { _id: string; name: string; studentName: string }[];
}

/** Renders the Classroom button on a stand-in assignment page at `path`, beside its submissions. */
export function renderClassroom(path: string) {
  return renderOnAssignmentPage<AssignmentData>(path, (data, queryKey) => (
    <>
      <ClassroomImportButton assignment={data.assignment} assignmentQueryKey={queryKey} />
      <ul aria-label="Submissions">
        {data.submissions.map((s) => (
          <li key={s._id}>
            {s.studentName}: {s.name}
          </li>
        ))}
      </ul>
    </>
  ));
}
