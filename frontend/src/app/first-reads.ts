import type { QueryClient } from '@tanstack/react-query';
import { sessionQueryOptions } from '../features/auth/api/get-session';
import { assignmentPageQueryOptions } from '../features/assignments/api/get-assignment';
import { assignmentKeys } from '../features/assignments/api/keys';
import { libraryQueryOptions } from '../features/library/api/get-library';
import { rowsParamsFromSearch, submissionRowsQueryOptions } from '../features/submissions/api/get-submission-rows';
import { getCsrfToken, servedSignedIn } from '../lib/api-client';
import { appConfigQueryOptions } from '../lib/app-config';

/** Pages that are not the signed-in app's: no app bar (and so no demo-mode banner) and no team data. */
const OUTSIDE_APP = /^\/(signin|submit|student|results)(\/|$)/;

/**
 * How long, at most, the first draw of a page that holds it (`holdDraw`) waits for the page's reads
 * after they were sent.
 */
export const HOLD_DRAW_MS = 600;

/**
 * The page's own first reads, for the pages whose first paint waits on them: by path. `post`: they
 * are POSTs, which carry the CSRF token (fetched beside the session, not after it). `holdDraw`: the
 * first draw waits for them (up to {@link HOLD_DRAW_MS}) when they went out at once, so the page is
 * drawn once with its rows instead of twice, the second draw waiting behind the first.
 */
const PAGE_READS: {
  path: RegExp;
  post?: boolean;
  holdDraw?: boolean;
  read: (client: QueryClient, match: RegExpMatchArray, search: URLSearchParams) => Promise<unknown>;
}[] = [
  { path: /^\/library\/?$/, read: (client) => client.prefetchQuery(libraryQueryOptions()) },
  {
    // The assignment and its submissions table's page (the one the URL asks for), side by side:
    // the table no longer waits for the page to have drawn before asking for its rows.
    path: /^\/assignment\/([^/]+)\/?$/,
    post: true,
    // The year group's table: drawing the page first and its rows after cost the rows a second
    // pass of 150 ms or more on a slow CPU (docs/performance.md, "Issue 23 after session 20").
    holdDraw: true,
    read: (client, m, search) => {
      const id = decodeURIComponent(m[1]);
      return Promise.all([
        client.prefetchQuery(assignmentPageQueryOptions(id)),
        client.prefetchQuery(submissionRowsQueryOptions(id, assignmentKeys.detail(id), rowsParamsFromSearch(search))),
      ]);
    },
  },
];

/**
 * Starts the reads the first page waits on before React draws anything, under the same query keys
 * the components use (they then find the read under way instead of starting it once their code has
 * loaded): the session, the deployment's settings (the demo-mode banner) on the app's pages, and
 * the library's or the assignment page's reads (the assignment and the page of its submissions
 * table that `search`, the URL's query string, asks): at once when the page was served to a
 * signed-in browser, else once the session is known to have a user. Without
 * this each waited for the entry, the layout's and the page's chunks, and the session, in turn
 * (docs/performance.md, "First load").
 *
 * Settles (never rejects) once what the app bar draws is read (the deployment's settings, whose
 * demo-mode banner sits under the bar) and the session is known, the page's reads having been sent.
 * The app's first draw waits for it (main.tsx), so the banner is there from the first paint instead
 * of pushing the page down when it arrives, and the page's reads are not queued behind that draw
 * (which could not show a signed-in page before the session anyway). On a page that holds its draw
 * (the assignment's), it also waits for the page's reads sent at once, up to {@link HOLD_DRAW_MS}.
 */
export function startFirstReads(client: QueryClient, pathname: string, search = ''): Promise<void> {
  const session = client.fetchQuery(sessionQueryOptions());
  if (OUTSIDE_APP.test(pathname)) return Promise.resolve();
  const settings = client.prefetchQuery(appConfigQueryOptions());
  const page = PAGE_READS.find(({ path }) => path.test(pathname));
  const match = page ? pathname.match(page.path) : null;
  const readPage = page && match ? () => page.read(client, match, new URLSearchParams(search)).catch(() => undefined) : null;
  // The page's reads go out before React's first draw (a task of 100 ms or more on a slow CPU that
  // would otherwise run first and hold them back): at once when the page was served signed in (it
  // carries the session's CSRF token), else as soon as the session says there is a user.
  const early = readPage !== null && servedSignedIn();
  if (page?.post) void getCsrfToken();
  const pageRead = early ? readPage() : null;
  const known = session.then(
    (s) => {
      if (s && readPage && !early) void readPage();
    },
    () => undefined,
  );
  const held = pageRead && page?.holdDraw ? Promise.race([pageRead, new Promise((done) => setTimeout(done, HOLD_DRAW_MS))]) : null;
  return Promise.all([settings, known, held]).then(() => undefined);
}
