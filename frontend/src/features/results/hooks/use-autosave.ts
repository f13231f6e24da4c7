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
  /**
   * Saves at once something that is not typed (a criterion ticked, a highlight deleted), counted
   * in the status like a typed save: "Saving…" while it is on its way, "Saved" once the server
   * confirmed it. When it fails it is kept under `key` and run again by the next `flush` (Retry);
   * a later `run` under the same key replaces it. `save` resolves false when it failed.
   */
  run: (key: string, save: ImmediateSave) => void;
}

/** An immediate save (see {@link Autosave.run}); resolves false when it failed. */
export type ImmediateSave = (options: AutosaveOptions) => Promise<boolean>;

/**
 * "Changes save as you go": each change is kept per field and saved `delay` ms after the last
 * one, in one call for every field changed meanwhile (never a call per keystroke). What is pending
 * is saved at once when a field is left (`flush`), when the screen goes (another submission, any
 * in-app navigation) and when the page is hidden or left (`pagehide`, `visibilitychange`, sent
 * with fetch `keepalive`). Saves follow one another, so the later one is built on the earlier;
 * a failed one keeps its changes pending (`error`, saved again by the next change or `flush`),
 * and while it is so, or while a save is on its way, the browser asks before the page is closed
 * or reloaded. What saves at once
 * (a tick, a deleted highlight: `run`) shows in the same status and is kept and sent again the
 * same way when it fails.
 */
export function useAutosave<E>(save: AutosaveFn<E>, delay = AUTOSAVE_DELAY_MS): Autosave<E> {
  const [status, setStatus] = useState<AutosaveStatus>('idle');
  const latestSave = useRef(save);
  useEffect(() => {
    latestSave.current = save;
  });
  const mounted = useRef(false);
  const report = useCallback((next: AutosaveStatus) => {
    if (mounted.current) setStatus(next);
  }, []);
  // The queue lives as long as the screen: its functions only read and write its own state.
  const [queue] = useState(() => createQueue<E>((batch, options) => latestSave.current(batch, options), report));
  const { flush, run } = queue;

  const change = useCallback(
    (key: string, value: E) => queue.change(key, value, delay),
    [queue, delay],
  );
  const discard = queue.discard;

  // The screen goes (another submission, another page of the app): save what is pending.
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      // A tick that failed was flipped back on screen: leaving, the teacher sees what the server
      // has, and only what is typed (still on screen, unsaved) goes.
      queue.forgetFailed();
      flush();
    };
  }, [queue, flush]);

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

  // A save on its way (a tick on a slow or offline network) dies with the page: ask first, as
  // for one that failed. Typed changes still waiting go with `pagehide` (keepalive) instead.
  useBeforeUnload(status === 'error' || status === 'saving');

  return { status, change, discard, flush, run };
}

/** A saving queue's state and what changes it (see {@link useAutosave}). */
function createQueue<E>(saveBatch: AutosaveFn<E>, report: (status: AutosaveStatus) => void) {
  let pending = new Map<string, E>();
  /** Immediate saves kept after a failure, to run again, by key. */
  const runs = new Map<string, { id: number; save: ImmediateSave }>();
  /** The latest run of each key: a failed run is kept only while no later one replaced it. */
  const latestRun = new Map<string, number>();
  let runIds = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight = 0;
  let failed = false;
  let again: Partial<AutosaveOptions> | null = null;

  /** Where saving stands once nothing is on its way. */
  const settle = () => {
    if (inFlight > 0) return;
    const unsaved = pending.size > 0 || runs.size > 0;
    report(failed && unsaved ? 'error' : unsaved ? 'pending' : 'saved');
  };

  const wait = (options: Partial<AutosaveOptions>) => {
    again = { ...again, ...options, quiet: (again?.quiet ?? true) && (options.quiet ?? false) };
  };

  /** Counts one save in the status; `putBack` keeps its changes when it fails. */
  const track = (attempt: () => Promise<boolean>, putBack: () => void) => {
    inFlight += 1;
    report('saving');
    let promise: Promise<boolean>;
    try {
      promise = attempt();
    } catch {
      promise = Promise.resolve(false);
    }
    void promise
      .catch(() => false)
      .then((ok) => {
        inFlight -= 1;
        if (!ok) {
          putBack();
          failed = true;
          again = null;
          if (inFlight === 0) report('error');
          return;
        }
        if (again && inFlight === 0) {
          const next = again;
          again = null;
          flush(next);
        } else {
          settle();
        }
      });
  };

  const send = (key: string, entry: { id: number; save: ImmediateSave }, options: AutosaveOptions) => {
    runs.delete(key);
    track(
      () => entry.save(options),
      () => {
        if (latestRun.get(key) === entry.id && !runs.has(key)) runs.set(key, entry);
      },
    );
  };

  const flush = (options: Partial<AutosaveOptions> = {}) => {
    clearTimeout(timer);
    timer = undefined;
    if (pending.size === 0 && runs.size === 0) return;
    // One save at a time, each from the result the one before left; only a page being left
    // cannot wait for the one on its way.
    if (inFlight > 0 && !options.keepalive) return wait(options);
    const keepalive = options.keepalive ?? false;
    const quiet = options.quiet ?? false;
    failed = false;
    // What failed to save at once (a tick) goes again first; the typed changes follow it.
    for (const [key, entry] of [...runs]) send(key, entry, { keepalive, quiet });
    if (pending.size === 0) return;
    if (inFlight > 0 && !keepalive) return wait(options);
    const batch = pending;
    pending = new Map();
    track(
      () => saveBatch(batch, { keepalive, quiet }),
      () => {
        // Kept to be saved again, unless typed over meanwhile.
        for (const [key, value] of batch) if (!pending.has(key)) pending.set(key, value);
      },
    );
  };

  const run = (key: string, save: ImmediateSave) => {
    runIds += 1;
    const entry = { id: runIds, save };
    latestRun.set(key, entry.id);
    // Sent at once, even beside a typed save on its way: a tick shows and goes now.
    send(key, entry, { keepalive: false, quiet: false });
  };

  const change = (key: string, value: E, delay: number) => {
    pending.set(key, value);
    clearTimeout(timer);
    timer = setTimeout(() => flush({ quiet: true }), delay);
    if (inFlight === 0) report('pending');
  };

  const discard = (key: string) => {
    if (!pending.delete(key)) return;
    if (pending.size === 0) {
      clearTimeout(timer);
      timer = undefined;
      settle();
    }
  };

  /** Drops the immediate saves that failed (the screen that would retry them goes). */
  const forgetFailed = () => runs.clear();

  return { flush, run, change, discard, forgetFailed };
}
