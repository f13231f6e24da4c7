import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { startFirstReads } from './app/first-reads';
import { router } from './app/router';
import { queryClient } from './lib/query-client';

// The first page's reads start now, not once its chunks have loaded and drawn (app/first-reads.ts).
const barRead = startFirstReads(queryClient, window.location.pathname, window.location.search);

const root = createRoot(document.getElementById('root')!);
const draw = () =>
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );

// React draws once the router has loaded the first page's code (its route `lazy` chunks, which the
// server names in modulepreload tags), so the first thing drawn is the page itself. Drawing at once
// drew the router's fallback first, then the page: two renders, layouts and paints on the critical
// path, which on a slow CPU put the library's Largest Contentful Paint ~0.5 s later
// (docs/performance.md, "First load"). It also waits for the settings the app bar's demo-mode banner
// shows (read since the start, usually long back), so the banner does not push the page down when it
// arrives. Until then index.html's own spinner holds the place.
const routerReady = new Promise<void>((resolve) => {
  if (router.state.initialized) return resolve();
  const stop = router.subscribe((state) => {
    if (!state.initialized) return;
    stop();
    resolve();
  });
});
void Promise.all([routerReady, barRead]).then(draw);
