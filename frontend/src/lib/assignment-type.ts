import { feedbackInfo } from './assignment-types/feedback';
import { gradeInfo } from './assignment-types/grade';
import type { AssignmentTypeInfo } from './assignment-types/info';
import { promptInfo } from './assignment-types/prompt';
import { rubricFeedbackInfo } from './assignment-types/rubric-feedback';

export type { AssignmentTypeInfo } from './assignment-types/info';

/**
 * The assignment types: the one list every feature and the app read (the server's
 * `assignment_type` enum, docs/architecture.md "Frontend: assignment-type modules").
 *
 * Two layers, so features stay apart:
 * - here, what any screen may know about a type ({@link AssignmentTypeInfo}: names, look, grading
 *   process, which panels apply), one file per type in `lib/assignment-types/`;
 * - in `src/app/processes/`, one module per type that adds the components other features draw it
 *   with (its wizard, definition, review panel, student view, summary panels), registered with
 *   {@link createAssignmentTypeRegistry}. Only the app composes features, so only it holds those.
 */

/** The types' info, one entry per type (a new type adds its file and its line here). */
const INFO = {
  grade: gradeInfo,
  feedback: feedbackInfo,
  'rubric-feedback': rubricFeedbackInfo,
  prompt: promptInfo,
} as const satisfies Record<string, AssignmentTypeInfo>;

/** An assignment type (`grade`, `feedback`, `rubric-feedback`, `prompt`). */
export type AssignmentType = keyof typeof INFO;

/** Every assignment type, in the order lists and filters show them. */
export const ASSIGNMENT_TYPES = Object.keys(INFO) as AssignmentType[];

/** True when `value` names an assignment type this build knows. */
export function isAssignmentType(value: unknown): value is AssignmentType {
  return typeof value === 'string' && Object.hasOwn(INFO, value);
}

/** What screens know of `type`, or undefined for a type this build does not know. */
export function assignmentTypeInfo(type: string | null | undefined): AssignmentTypeInfo | undefined {
  return isAssignmentType(type) ? INFO[type] : undefined;
}

/** How `type` is named on screen; an unknown type shows as itself. */
export function assignmentTypeLabel(type: string): string {
  return assignmentTypeInfo(type)?.label ?? type;
}

/** Where the creation page of each assignment type lives. */
export function newAssignmentPath(type: AssignmentType): string {
  return `/assignments/new/${type}`;
}

/** A registry of per-type modules: one module for every type, found by the type's name. */
export interface AssignmentTypeRegistry<M> {
  /** The module of `type`, or undefined for a type this build does not know. */
  get(type: string | null | undefined): M | undefined;
  /** Every module, in {@link ASSIGNMENT_TYPES} order. */
  all(): M[];
}

/**
 * Builds a registry from one module per type. The record's type makes a missing type a compile
 * error, so adding a type to {@link ASSIGNMENT_TYPES} points at every registry that needs it.
 */
export function createAssignmentTypeRegistry<M>(modules: Record<AssignmentType, M>): AssignmentTypeRegistry<M> {
  return {
    get: (type) => (isAssignmentType(type) ? modules[type] : undefined),
    all: () => ASSIGNMENT_TYPES.map((type) => modules[type]),
  };
}
