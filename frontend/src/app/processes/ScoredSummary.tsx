import { useMemo } from 'react';
import type { AssignmentWithResults } from '../../features/assignments/api/get-assignment';
import { useAssignmentFunction } from '../../features/assignments/api/get-function';
import { assignmentKeys } from '../../features/assignments/api/keys';
import { AgreementPanel } from '../../features/results/components/agreement/AgreementPanel';
import { ClassSummaryPanel } from '../../features/results/components/summary/ClassSummaryPanel';
import { normalizeFunctionResults, readAssignmentGrading } from '../../features/results/lib/normalize';
import { submissionReviewPath } from '../../features/submissions/lib/review-path';

/**
 * The class summary and the agreement check of a type whose results score criteria (grade,
 * rubric-feedback): its module's `Summary`.
 */
export function ScoredSummary({ data }: { data: AssignmentWithResults }) {
  const { assignment } = data;
  const definition = useAssignmentFunction(assignment._id, assignment.type);
  const results = useMemo(() => normalizeFunctionResults(data.functionResults), [data.functionResults]);
  const grading = readAssignmentGrading(assignment);
  const queryKey = assignmentKeys.detail(assignment._id);
  return (
    <>
      <ClassSummaryPanel
        assignmentId={assignment._id}
        assignmentQueryKey={queryKey}
        type={assignment.type}
        fn={definition.data}
        results={results}
        summary={grading.classSummary}
      />
      <AgreementPanel
        assignmentId={assignment._id}
        assignmentQueryKey={queryKey}
        results={results}
        report={grading.agreement}
        status={grading.agreementStatus}
        submissionHref={(submissionId) => submissionReviewPath(assignment._id, submissionId)}
      />
    </>
  );
}
