/**
 * Answer boxes for handwritten grade assignments: the teacher draws, once per assignment, where
 * each question's answer sits on a sample page ({@link AnswerBoxesPanel}); the server crops every
 * submission's answers from them. {@link flattenQuestions} turns the question tree into the
 * labelled paths ("1", "1a", "1a i") the panel lists.
 */
export { AnswerBoxesPanel, type AnswerBoxesPanelProps } from './components/AnswerBoxesPanel';
export { usesAnswerBoxes } from './lib/uses-answer-boxes';
export { flattenQuestions, questionLabel, type BoxQuestion, type QuestionNode } from './lib/questions';
