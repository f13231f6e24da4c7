/**
 * The results feature's components for the app to compose: the review of a result by type
 * (grade, feedback, rubric-feedback, prompt; each takes {@link ResultReviewProps}), the highlighted text
 * on its own, and the assignment page's class summary and agreement panels. The helpers the
 * routes need to feed them (normalising the server's results and definition, polling) come along.
 */
export { FeedbackReview } from './highlights/FeedbackReview';
export { HighlightedText, TEXT_NOT_PROCESSED, type HighlightedTextProps } from './highlights/HighlightedText';
export { RubricReview } from './rubric/RubricReview';
export { PromptReview } from './prompt/PromptReview';
export { GradeReview } from './grade/GradeReview';
export { GradeStudentView } from './student/GradeStudentView';
export { ClassSummaryPanel, type ClassSummaryPanelProps } from './summary/ClassSummaryPanel';
export { AgreementPanel, type AgreementPanelProps } from './agreement/AgreementPanel';
export type { ResultFunction, ResultReviewProps } from '../lib/definition';
export { normalizeResultFunction } from '../lib/definition';
export {
  assignmentGradingRefetchInterval,
  isFinished,
  isInProgress,
  normalizeFunctionResult,
  normalizeFunctionResults,
  readAssignmentGrading,
} from '../lib/normalize';
