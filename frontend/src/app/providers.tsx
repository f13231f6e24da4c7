import { CacheProvider } from '@emotion/react';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { SessionProvider } from '../features/auth/session/SessionProvider';
import { emotionCacheFor } from './emotion-cache';
import { theme } from './theme';

/** Props for {@link AppProviders}. */
export interface AppProvidersProps {
  queryClient: QueryClient;
  children: ReactNode;
  /** Session polling interval in seconds (0 = off); defaults to `VITE_SESSION_POLL_SECONDS`. */
  sessionRefetchInterval?: number;
}

/**
 * App-wide providers: emotion's cache (its style tags carry the page's CSP nonce), server-state
 * cache, MUI theme and baseline styles, the session.
 */
export function AppProviders({ queryClient, children, sessionRefetchInterval }: AppProvidersProps) {
  return (
    <CacheProvider value={emotionCacheFor(document)}>
      <QueryClientProvider client={queryClient}>
        <ThemeProvider theme={theme}>
          <CssBaseline />
          <SessionProvider refetchInterval={sessionRefetchInterval}>{children}</SessionProvider>
        </ThemeProvider>
      </QueryClientProvider>
    </CacheProvider>
  );
}
