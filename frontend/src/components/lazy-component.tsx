import { lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react';
import { loadChunk, registerLoader } from '../lib/lazy-page';

/** Options of {@link lazyComponent}. */
export interface LazyComponentOptions {
  /**
   * Download it once the page has loaded and the browser is idle, before it is first drawn: for what
   * must draw even when the network has gone (an error's toast, a confirmation), since a chunk that
   * cannot load when first drawn reloads the page.
   */
  prefetch?: boolean;
}

/** Runs `run` once the page has loaded and the main thread is idle (never during its first paint). */
function whenPageIdle(run: () => void): void {
  if (typeof window === 'undefined') return;
  const idle = () => (typeof window.requestIdleCallback === 'function' ? window.requestIdleCallback(() => run(), { timeout: 5000 }) : window.setTimeout(run, 1000));
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
}

/** Whether props are a dialog's that says it is closed (`open: false`). */
function isClosed(props: object): boolean {
  return 'open' in props && (props as { open?: unknown }).open === false;
}

/**
 * A component loaded from its own chunk the first time it draws, behind its own Suspense boundary,
 * so callers use it like any other component. For what a page does not draw at first: dialogs,
 * editors, another type's panels (docs/performance.md, "First load"). `fallback` shows while it
 * loads: nothing by default (a closed dialog), a `PageSpinner` for a panel (it fades in late, so a
 * quick load shows nothing).
 */
export function lazyComponent<P extends object>(
  load: () => Promise<ComponentType<P>>,
  fallback: ReactNode = null,
  { prefetch = false }: LazyComponentOptions = {},
): ComponentType<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const start = () =>
    (loading ??= loadChunk(load).then((Component) => {
      loaded = Component;
      return { default: Component };
    }));
  registerLoader(start);
  if (prefetch) {
    // A failure here is no error (nothing was asked for yet): the first draw loads it again.
    whenPageIdle(() => void load().then((Component) => (loaded ??= Component), () => undefined));
  }
  const Lazy = lazy(start);
  function LazyComponent(props: P) {
    // Once loaded, later instances draw it directly; an instance keeps the way it started, so a
    // component never remounts (and loses its state) when its chunk arrives.
    const [Loaded] = useState(() => loaded);
    const closed = isClosed(props);
    const [wasOpened, setWasOpened] = useState(!closed);
    if (!closed && !wasOpened) setWasOpened(true);
    if (Loaded) return <Loaded {...props} />;
    // A dialog that is closed and was never opened draws nothing: it neither downloads its chunk nor
    // suspends, so it cannot hold back the page's first draw (React 19 reveals a page's suspended
    // parts together, and the assignment page's closed dialogs made its table wait for two rounds
    // of chunks). Opened once, it loads and stays mounted, so it closes with its transition.
    if (closed && !wasOpened) return null;
    return (
      <Suspense fallback={fallback}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  return LazyComponent;
}
