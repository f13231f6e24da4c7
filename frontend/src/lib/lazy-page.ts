import type { ComponentType } from 'react';

/** When this tab last reloaded for a missing chunk (sessionStorage, milliseconds). */
export const CHUNK_RELOAD_KEY = 'markwell:chunk-reload-at';

/** A second failure within this long of the reload is a real error, not a stale page. */
const RELOAD_WINDOW_MS = 30_000;

/**
 * Reloads the page once for a chunk that failed to load, and says whether it did. A page from
 * before a deploy asks for chunks the new build no longer has; the reloaded page names the new
 * ones. A failure again soon after is left to the error page, so a broken server never loops.
 */
export function reloadOnceForChunk(): boolean {
  try {
    const last = Number(window.sessionStorage.getItem(CHUNK_RELOAD_KEY) ?? 0);
    if (Date.now() - last < RELOAD_WINDOW_MS) return false;
    window.sessionStorage.setItem(CHUNK_RELOAD_KEY, String(Date.now()));
  } catch {
    return false; // no storage: no way to tell a second failure from the first
  }
  window.location.reload();
  return true;
}

/**
 * `load()` (a dynamic import), reloading the page once when it fails. While the page reloads the
 * promise stays pending, so the old page shows no error in between.
 */
export async function loadChunk<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if (reloadOnceForChunk()) return new Promise<T>(() => {});
    throw err;
  }
}

/**
 * A route's `lazy` that loads its page component from its own chunk, so a route downloads only
 * the code it draws: `{ path: 'library', lazy: lazyPage(() => import('./LibraryPage'), (m) => m.LibraryPage) }`.
 */
export function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return async (): Promise<{ Component: ComponentType }> => ({ Component: pick(await loadChunk(load)) });
}
