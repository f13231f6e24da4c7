import type { RouteObject } from 'react-router';
import type { LazyRoute } from '../lib/lazy-page';

/**
 * `routes` with every lazy route that has loaded (setup.ts loads them all before a file's tests)
 * drawn at once, as before the routes were split: a test sees its page on the first render.
 */
export function loadedRoutes(routes: RouteObject[]): RouteObject[] {
  return routes.map((route) => {
    const loaded = (route.lazy as LazyRoute | undefined)?.loaded;
    const children = route.children ? loadedRoutes(route.children) : undefined;
    if (!loaded) return children ? ({ ...route, children } as RouteObject) : route;
    return { ...route, lazy: undefined, ...loaded, ...(children ? { children } : {}) } as RouteObject;
  });
}
