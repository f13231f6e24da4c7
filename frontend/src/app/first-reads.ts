import type { QueryClient } from '@tanstack/react-query';
import { sessionQueryOptions } from '../features/auth/api/get-session';
import { assignmentPageQueryOptions } from '../features/assignments/api/get-assignment';
import { libraryQueryOptions } from '../features/library/api/get-library';
import { appConfigQueryOptions } from '../lib/app-config';

/** Pages that are not the signed-in app's: no app bar (and so no demo-mode banner) and no team data. */
const OUTSIDE_APP = /^\/(signin|submit|student|results)(\/|$)/;

/** The page's own first read, for the pages whose first paint waits on one: by path. */
const PAGE_READS: { path: RegExp; read: (client: QueryClient, match: RegExpMatchArray) => Promise<void> }[] = [
  { path: /^\/library\/?$/, read: (client) => client.prefetchQuery(libraryQueryOptions()) },
  {
    path: /^\/assignment\/([^/]+)\/?$/,
    read: (client, m) => client.prefetchQuery(assignmentPageQueryOptions(decodeURIComponent(m[1]))),
  },
];

/**
 * Starts the reads the first page waits on before React draws anything, under the same query keys
 * the components use (they then find the read under way instead of starting it once their code has
 * loaded): the session, the deployment's settings (the demo-mode banner) on the app's pages, and,
 * once the session is known to have a user, the library's or the assignment page's read. Without
 * this each waited for the entry, the layout's and the page's chunks, and the session, in turn
 * (docs/performance.md, "First load").
 *
 * Settles (never rejects) once what the app bar draws is read: the deployment's settings, whose
 * demo-mode banner sits under the bar. The app's first draw waits for it (main.tsx), so the banner
 * is there from the first paint instead of pushing the page down when it arrives.
 */
export function startFirstReads(client: QueryClient, pathname: string): Promise<void> {
  const session = client.fetchQuery(sessionQueryOptions());
  if (OUTSIDE_APP.test(pathname)) return Promise.resolve();
  const settings = client.prefetchQuery(appConfigQueryOptions());
  for (const { path, read } of PAGE_READS) {
    const match = pathname.match(path);
    if (!match) continue;
    void session.then((s) => (s ? read(client, match) : undefined)).catch(() => undefined);
    break;
  }
  return settings;
}
