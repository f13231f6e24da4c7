import { useEffect, useRef } from 'react';
import { useGradeOne } from '../api/grade-one';
import type { ResultAssignment } from '../api/get-assignment-view-only';
import type { StudentResult } from '../api/get-result-view-only';

/** Result statuses from which instant feedback starts grading: never run, or answer boxes ready. */
const NOT_STARTED = ['', 'ready-to-grade'];

/**
 * Instant feedback: once the work is read and its result has never been run, asks the AI to
 * grade it (`lambda/gradeOnePub`) — once per page, and only when the assignment gives instant
 * feedback. Returns the call's state, so the page can say the work is being graded meanwhile.
 */
export function useInstantFeedback(input: {
  assignmentId: string;
  submissionId: string;
  viewToken: string | null;
  assignment: ResultAssignment | undefined;
  result: StudentResult | undefined;
}) {
  const { assignmentId, submissionId, viewToken, assignment, result } = input;
  const gradeOne = useGradeOne();
  const asked = useRef(false);
  const type = assignment?.type;
  const wanted = assignment?.provideInstantFeedback === true && !!type && result !== undefined && NOT_STARTED.includes(result.status);
  const { mutate } = gradeOne;

  useEffect(() => {
    if (!wanted || asked.current || !type) return;
    asked.current = true;
    mutate({ assignmentId, submissionId, type, viewToken });
  }, [wanted, type, assignmentId, submissionId, viewToken, mutate]);

  return gradeOne;
}
