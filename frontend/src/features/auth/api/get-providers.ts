import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { AUTH_BASE_PATH } from './get-session';

/** The kinds of sign-in the session provider offers. */
export type ProviderType = 'oauth' | 'credentials' | 'email';

/** One configured sign-in provider (`google`, `oidc`, `credentials` …). */
export interface AuthProvider {
  id: string;
  name: string;
  type: ProviderType;
  signinUrl: string;
  callbackUrl: string;
}

/** Providers by id, as `GET /api/auth/providers` returns them. */
export type AuthProviders = Record<string, AuthProvider>;

/** Cache key of the provider list. */
export const PROVIDERS_QUERY_KEY = ['auth', 'providers'] as const;

/** Fetches the configured sign-in providers. */
export async function getProviders(options: { signal?: AbortSignal } = {}): Promise<AuthProviders> {
  const body = await api.getRaw<AuthProviders | null>(`${AUTH_BASE_PATH}/providers`, options);
  return body ?? {};
}

/**
 * Query options for the providers. No automatic retry: the sign-in page shows an error with a
 * "Try again" button instead of leaving the teacher waiting.
 */
export function providersQueryOptions() {
  return queryOptions({
    queryKey: PROVIDERS_QUERY_KEY,
    queryFn: ({ signal }) => getProviders({ signal }),
    staleTime: 5 * 60_000,
    retry: false,
  });
}

/** The configured sign-in providers. */
export function useProviders() {
  return useQuery(providersQueryOptions());
}
