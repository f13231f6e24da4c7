import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client';

/** What the browser is told about this deployment. */
export interface AppConfig {
  /** AI results come from Markwell's built-in demo model, not a real provider. */
  demoModel: boolean;
  /** Released results can be emailed to students (the server has SMTP set up). */
  emailEnabled?: boolean;
}

/** Fetches the deployment's settings (`GET /api/v1/app-config`). */
export function getAppConfig(options: { signal?: AbortSignal } = {}): Promise<AppConfig> {
  return api.get<AppConfig>('/api/v1/app-config', options);
}

/** Query options for the deployment's settings; they do not change while the page is open. */
export function appConfigQueryOptions() {
  return queryOptions({
    queryKey: ['app-config'],
    queryFn: ({ signal }) => getAppConfig({ signal }),
    staleTime: Infinity,
  });
}

/** The deployment's settings. */
export function useAppConfig() {
  return useQuery(appConfigQueryOptions());
}
