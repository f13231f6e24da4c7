import { useCallback, useEffect, useRef, useState } from 'react';
import { useBeforeUnload } from '../../../lib/use-before-unload';

/** How long after the last keystroke a typed change is saved. */
export const AUTOSAVE_DELAY_MS = 800;

/**
 * Where saving stands: nothing typed yet (`idle`), a change waits for the teacher to stop typing
 * (`pending`), a save is on its way (`saving`), all is saved (`saved`), or the last save failed
 * and the change is still unsaved (`error`).
 */
export type AutosaveStatus = 'idle' | 'pending' | 'saving' | 'saved' | 'error';

/** How a batch is being saved. */
export interface AutosaveOptions {
  /** The page is being hidden or left: the request must outlive it (fetch `keepalive`). */
  keepalive: boolean;
  /** Saved by the timer, while the teacher may still be typing: nothing to announce but "Saved". */
  quiet: boolean;
}

/** Saves a batch of changes (the latest per key); resolves false when it failed. */
export type AutosaveFn<E> = (changes: Map<string, E>, options: AutosaveOptions) => Promise<boolean>;

/** What {@link useAutosave} gives a screen. */
export interface Autosave<E> {
  status: AutosaveStatus;
  /** Records the latest value of one field (`key`) and saves it once typing stops. */
  change: (key: string, value: E) => void;
  /** Forgets a field's unsaved change (it was typed back to the saved value). */
  discard: (key: string) => void;
  /** Saves what is pending now (a field was left, Save or Retry was pressed). */
  flush: (options?: Partial<AutosaveOptions>) => void;
}

/**
 * "Changes save as you go": each change is kept per field and saved `delay` ms after the last
 * one, in one call for every field changed meanwhile (never a call per keystroke). What is pending
 * is saved at once when a field is left (`flush`), when the screen goes (another submission, any
 * in-app navigation) and when the page is hidden or left (`pagehide`, `visibilitychange`, sent
 * with fetch `keepalive`). Saves follow one another, so the later one is built on the earlier;
 * a failed one keeps its changes pending (`error`, saved again by the next change or `flush`),
 * and while it is so the browser asks before the page is closed or reloaded.
 */
export function useAutosave<E>(save: AutosaveFn<E>, delay = AUTOSAVE_DELAY_MS): Autosave<E> {
  const [status, setStatus] = useState<AutosaveStatus>('idle');
  const latestSave = useRef(save);
  useEffect(() => {
    latestSave.current = save;
  });
  const pending = useRef(new Map<string, E>());
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const inFlight = useRef(0);
  const again = useRef<Partial<AutosaveOptions> | null>(null);
  const mounted = useRef(false);

  const report = useCallback((next: AutosaveStatus) => {
    if (mounted.current) setStatus(next);
  }, []);

  const flush = useCallback(
    (options: Partial<AutosaveOptions> = {}) => {
      clearTimeout(timer.current);
      timer.current = undefined;
      if (pending.current.size === 0) return;
      // One save at a time, each from the result the one before left; only a page being left
      // cannot wait for the one on its way.
      if (inFlight.current > 0 && !options.keepalive) {
        again.current = { ...again.current, ...options, quiet: (again.current?.quiet ?? true) && (options.quiet ?? false) };
        return;
      }
      const batch = pending.current;
      pending.current = new Map();
      const quiet = options.quiet ?? false;
      inFlight.current += 1;
      report('saving');
      void latestSave
        .current(batch, { keepalive: options.keepalive ?? false, quiet })
        .catch(() => false)
        .then((ok) => {
          inFlight.current -= 1;
          if (!ok) {
            // Kept to be saved again, unless typed over meanwhile.
            for (const [key, value] of batch) if (!pending.current.has(key)) pending.current.set(key, value);
            again.current = null;
            report('error');
            return;
          }
          if (again.current) {
            const next = again.current;
            again.current = null;
            flush(next);
          } else if (pending.current.size > 0) {
            report('pending');
          } else if (inFlight.current === 0) {
            report('saved');
          }
        });
    },
    [report],
  );

  const change = useCallback(
    (key: string, value: E) => {
      pending.current.set(key, value);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => flush({ quiet: true }), delay);
      if (inFlight.current === 0) report('pending');
    },
    [delay, flush, report],
  );

  const discard = useCallback(
    (key: string) => {
      if (!pending.current.delete(key)) return;
      if (pending.current.size === 0) {
        clearTimeout(timer.current);
        timer.current = undefined;
        if (inFlight.current === 0) report('saved');
      }
    },
    [report],
  );

  // The screen goes (another submission, another page of the app): save what is pending.
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      flush();
    };
  }, [flush]);

  // The page is hidden, closed, reloaded or left with the Back button.
  useEffect(() => {
    const away = () => flush({ keepalive: true });
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') away();
    };
    window.addEventListener('pagehide', away);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('pagehide', away);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [flush]);

  useBeforeUnload(status === 'error');

  return { status, change, discard, flush };
}
