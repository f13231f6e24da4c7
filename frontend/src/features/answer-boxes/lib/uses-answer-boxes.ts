import { assignmentTypeInfo } from '../../../lib/assignment-type';

/** True for the assignments whose answers are cropped from boxes: handwritten assignments of a type that uses them (grade). */
export function usesAnswerBoxes(assignment: { type: string; isHandWritten: boolean }): boolean {
  return Boolean(assignmentTypeInfo(assignment.type)?.answerBoxes) && assignment.isHandWritten;
}
