import type { ComponentType } from 'react';

/** When this tab last reloaded for a missing chunk (sessionStorage, milliseconds). */
export const CHUNK_RELOAD_KEY = 'markwell:chunk-reload-at';

/** A second failure within this long of the reload is a real error, not a stale page. */
const RELOAD_WINDOW_MS = 30_000;

/** Whether a reload for a missing chunk may happen now (none in the last 30 s). */
export function canReloadForChunk(): boolean {
  try {
    return Date.now() - Number(window.sessionStorage.getItem(CHUNK_RELOAD_KEY) ?? 0) >= RELOAD_WINDOW_MS;
  } catch {
    return false; // no storage: no way to tell a second failure from the first
  }
}

/**
 * Reloads the page once for a chunk that failed to load, and says whether it did. A page from
 * before a deploy asks for chunks the new build no longer has; the reloaded page names the new
 * ones. A failure again soon after is left to the error page, so a broken server never loops.
 */
export function reloadOnceForChunk(): boolean {
  if (!canReloadForChunk()) return false;
  try {
    window.sessionStorage.setItem(CHUNK_RELOAD_KEY, String(Date.now()));
  } catch {
    return false;
  }
  window.location.reload();
  return true;
}

/** A page's code that did not load: the route's error page reloads once for it (RouteErrorPage). */
export class ChunkLoadError extends Error {
  constructor(cause: unknown) {
    super('A part of Markwell could not be loaded.', { cause });
    this.name = 'ChunkLoadError';
  }
}

/**
 * `load()` (a dynamic import) for a route's `lazy`: a failure becomes a {@link ChunkLoadError}.
 * The route's error page reloads then, once the address is the page asked for (during the
 * navigation it is still the previous page's).
 */
export async function importChunk<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    throw new ChunkLoadError(err);
  }
}

/**
 * `load()` (a dynamic import) for a component inside a page, reloading the page once when it
 * fails. While the page reloads the promise stays pending, so the page shows no error in between.
 */
export async function loadChunk<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if (reloadOnceForChunk()) return new Promise<T>(() => {});
    throw err;
  }
}

/** A route's `lazy`; `loaded` holds what it resolved to once it has. */
export type LazyRoute = (() => Promise<{ Component: ComponentType }>) & { loaded?: { Component: ComponentType } };

/** Every lazy route and component made so far, for {@link loadEverything}. */
const loaders: (() => Promise<unknown>)[] = [];

/** Registers what {@link loadEverything} loads (lazy-component.tsx registers its loaders too). */
export function registerLoader(load: () => Promise<unknown>): void {
  loaders.push(load);
}

/** A route's `lazy` that remembers what it loaded (tests draw a loaded route at once). */
export function lazyRoute(load: () => Promise<{ Component: ComponentType }>): LazyRoute {
  const route: LazyRoute = async () => (route.loaded ??= await load());
  registerLoader(route);
  return route;
}

/**
 * A route's `lazy` that loads its page component from its own chunk, so a route downloads only
 * the code it draws: `{ path: 'library', lazy: lazyPage(() => import('./LibraryPage'), (m) => m.LibraryPage) }`.
 */
export function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): LazyRoute {
  return lazyRoute(async () => ({ Component: pick(await importChunk(load)) }));
}

/**
 * Loads every lazy route and component made so far, and those they make, so that tests draw
 * pages at once, as before the split (src/testing/setup.ts). The app never calls it.
 */
export async function loadEverything(): Promise<void> {
  for (let done = 0; done < loaders.length; ) {
    const batch = loaders.slice(done);
    done = loaders.length;
    await Promise.all(batch.map((load) => load()));
  }
}
