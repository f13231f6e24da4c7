import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { SessionProvider } from '../features/auth/session/SessionProvider';
import { theme } from './theme';

/** Props for {@link AppProviders}. */
export interface AppProvidersProps {
  queryClient: QueryClient;
  children: ReactNode;
  /** Session polling interval in seconds (0 = off); defaults to `VITE_SESSION_POLL_SECONDS`. */
  sessionRefetchInterval?: number;
}

/** App-wide providers: server-state cache, MUI theme and baseline styles, the session. */
export function AppProviders({ queryClient, children, sessionRefetchInterval }: AppProvidersProps) {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <SessionProvider refetchInterval={sessionRefetchInterval}>{children}</SessionProvider>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
