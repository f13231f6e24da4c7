import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { startFirstReads } from './app/first-reads';
import { queryClient } from './lib/query-client';

// The first page's reads start now, not once its chunks have loaded and drawn (app/first-reads.ts).
startFirstReads(queryClient, window.location.pathname, window.location.search);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
