import { useUnsavedChangesGuard } from '../../../components/UnsavedChangesDialog';
import type { AssignmentInput, DefinitionInput } from '../api/types';
import type { WizardShellProps, WizardStepInfo } from '../components/wizard/WizardShell';
import { useCreateAssignmentWithDefinition } from './use-create-assignment';
import { reachableStep, useWizardStep } from './use-wizard-step';

/** The {@link WizardShell} props a creation wizard passes through unchanged. */
export type WizardShellState = Pick<WizardShellProps, 'steps' | 'step' | 'problem' | 'onBack' | 'onNext' | 'submitting' | 'leaveGuard'>;

/** What {@link useCreationWizard} returns. */
export interface CreationWizard {
  /** The step shown, from 1. */
  step: number;
  /** True once the assignment is created and the wizard is on its way to it. */
  leaving: boolean;
  /** Creates the assignment and its definition, then opens the assignment; stays put on failure. */
  finish: (input: AssignmentInput, definition: DefinitionInput) => Promise<void>;
  /** Spread into {@link WizardShell}: the steps, where the wizard is, and what Back and Next do. */
  shell: WizardShellState;
}

/**
 * The wiring every assignment-creation wizard shares: the step kept in the address and reachable
 * only past valid steps (`problems[i]` is step i+1's problem, or null), and creation in two calls
 * that leaves for the new assignment's page once both are saved. While `dirty` (the teacher has
 * entered anything), leaving the wizard other than by creating the assignment asks first.
 */
export function useCreationWizard(steps: WizardStepInfo[], problems: (string | null)[], dirty: boolean): CreationWizard {
  const wizard = useWizardStep(steps.length, reachableStep(problems));
  const { create, pending } = useCreateAssignmentWithDefinition();
  const guard = useUnsavedChangesGuard(dirty && !wizard.leaving);

  async function finish(input: AssignmentInput, definition: DefinitionInput) {
    const id = await create(input, definition);
    if (id) {
      guard.allowLeave();
      wizard.leave(`/assignment/${id}`);
    }
  }

  return {
    step: wizard.step,
    leaving: wizard.leaving,
    finish,
    shell: {
      steps,
      step: wizard.step,
      problem: problems[wizard.step - 1],
      onBack: wizard.back,
      onNext: wizard.next,
      submitting: pending,
      leaveGuard: guard.dialog,
    },
  };
}
