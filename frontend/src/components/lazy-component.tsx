import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { loadChunk } from '../lib/lazy-page';

/**
 * A component loaded from its own chunk the first time it draws, behind its own Suspense boundary,
 * so callers use it like any other component. For what a page does not draw at first: dialogs,
 * editors, another type's panels (docs/performance.md, "First load"). `fallback` shows while it
 * loads: nothing by default (a closed dialog), a `PageSpinner` for a panel (it fades in late, so a
 * quick load shows nothing).
 */
export function lazyComponent<P extends object>(load: () => Promise<ComponentType<P>>, fallback: ReactNode = null): ComponentType<P> {
  const Lazy = lazy(() => loadChunk(load).then((Component) => ({ default: Component })));
  function LazyComponent(props: P) {
    return (
      <Suspense fallback={fallback}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  return LazyComponent;
}
