import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';

/** History state a wizard step carries: how many steps were pushed since the wizard opened. */
interface WizardHistoryState {
  wizardDepth?: number;
}

function depthOf(state: unknown): number {
  const depth = (state as WizardHistoryState | null)?.wizardDepth;
  return typeof depth === 'number' && depth > 0 ? depth : 0;
}

/** What {@link useWizardStep} returns. */
export interface WizardStep {
  /** The step shown, from 1. */
  step: number;
  /** Goes to the next step, adding a history entry so the browser's Back returns here. */
  next: () => void;
  /** Goes to the previous step (through history when the wizard pushed this entry). */
  back: () => void;
  /**
   * Leaves the wizard for `to`, first unwinding the wizard's own history entries, so the
   * browser's Back from `to` goes to where the teacher was before the wizard.
   */
  leave: (to: string) => void;
  /** True from `leave` until the new page takes over. */
  leaving: boolean;
}

/**
 * Keeps a wizard's step in the address (`?step=N`), so the browser's Back and Forward move
 * between steps. A step is only shown once every step before it is valid: `reachable` is the
 * furthest step the wizard's state allows, and an address asking for more is corrected.
 */
export function useWizardStep(stepCount: number, reachable: number): WizardStep {
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const depth = depthOf(location.state);

  const raw = Number(params.get('step') ?? '1');
  const requested = Number.isInteger(raw) && raw >= 1 && raw <= stepCount ? raw : 1;
  const step = Math.min(requested, Math.max(1, reachable));

  const pendingExit = useRef<string | null>(null);
  const [leaving, setLeaving] = useState(false);

  useEffect(() => {
    if (pendingExit.current !== null) {
      if (depth === 0) {
        const to = pendingExit.current;
        pendingExit.current = null;
        void navigate(to, { replace: true });
      }
      return;
    }
    if (params.has('step') && params.get('step') !== String(step)) {
      void navigate({ search: `?step=${step}` }, { replace: true, state: location.state });
    }
  }, [depth, params, step, navigate, location.state, location.key]);

  const next = useCallback(() => {
    if (step >= stepCount) return;
    void navigate({ search: `?step=${step + 1}` }, { state: { wizardDepth: depth + 1 } });
  }, [depth, navigate, step, stepCount]);

  const back = useCallback(() => {
    if (step <= 1) return;
    if (depth > 0) void navigate(-1);
    else void navigate({ search: `?step=${step - 1}` }, { replace: true });
  }, [depth, navigate, step]);

  const leave = useCallback(
    (to: string) => {
      setLeaving(true);
      if (depth > 0) {
        pendingExit.current = to;
        void navigate(-depth);
      } else {
        void navigate(to, { replace: true });
      }
    },
    [depth, navigate],
  );

  return { step, next, back, leave, leaving };
}

/**
 * The furthest step a wizard may show, given each step's problem (null when the step is valid):
 * the first step with a problem, or the last step when none has one.
 */
export function reachableStep(problems: (string | null)[]): number {
  const firstProblem = problems.findIndex((p) => p !== null);
  return firstProblem === -1 ? problems.length : firstProblem + 1;
}
