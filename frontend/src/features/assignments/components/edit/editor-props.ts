import type { AssignmentFunction, DefinitionInput } from '../../api/types';

/** The switches an assignment has besides its name. */
export interface AssignmentSettings {
  isHandWritten: boolean;
  provideInstantFeedback: boolean;
}

/** What a type's definition editor reports on every change. */
export interface DefinitionDraft {
  input: DefinitionInput;
  /** The first problem that stops Save, or null. */
  problem: string | null;
}

/**
 * Props of an assignment type's definition editor after creation (its module's `Editor`): the
 * same editors its wizard uses, filled with the saved definition.
 */
export interface EditorProps {
  fn: AssignmentFunction;
  settings: AssignmentSettings;
  onSettings: (settings: AssignmentSettings) => void;
  onChange: (draft: DefinitionDraft) => void;
}
