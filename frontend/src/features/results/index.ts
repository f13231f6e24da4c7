/**
 * AI results: reading one submission's result and reviewing it. Grade results are reviewed with
 * {@link GradeReview} (criteria toggles, adjustments, feedback, the number keys); feedback,
 * rubric-feedback and prompt results with their own review components. The review screen's
 * header, notices (demo model, injection flags, failures, progress), keys and sheet of keys are
 * here for the page to compose with the assignment and submission it loads.
 */
export type { AnswerNode, FunctionResult, ResultFlag, ResultStatus } from './api/types';
export { functionResultKeys } from './api/keys';
export { functionResultQueryOptions, getFunctionResult, RESULT_POLL_MS, useFunctionResult } from './api/get-function-result';
export { BENCHMARK_FAILED_MESSAGE, BENCHMARK_SET_MESSAGE, setBenchmark, useSetBenchmark } from './api/set-benchmark';
export { toggleCriterion, useToggleCriterion, type ToggleCriterionInput } from './api/toggle-criterion';
export { answersTotal, formatPoints } from './lib/answers';
export { GradeReview } from './components/grade/GradeReview';
export { SubmissionTextPanel } from './components/grade/SubmissionTextPanel';
export { ReviewHeader, type ReviewHeaderProps } from './components/review/ReviewHeader';
export { DEMO_MODEL, ReviewNotices, type ReviewNoticesProps } from './components/review/ReviewNotices';
export { REVIEW_SHORTCUTS, ShortcutsDialog } from './components/review/ShortcutsDialog';
export { reviewPosition, type ReviewItem, type ReviewPosition } from './hooks/review-order';
export { useReviewActions } from './hooks/use-review-actions';
export { useReviewKeys } from './hooks/use-review-keys';
// The feedback, rubric-feedback and prompt review components, the assignment page's panels and
// the helpers that feed them (normalising results and definitions, polling).
export * from './components';
