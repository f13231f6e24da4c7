import type { QueryClient } from '@tanstack/react-query';
import { CURRENT_USER_QUERY_KEY } from '../../../lib/current-user';
import { libraryKeys, RUBRICS_QUERY_KEY } from './keys';

/** Refetches the library and the current user's team summary (folders and item ids). */
export async function invalidateLibrary(queryClient: QueryClient, options: { rubrics?: boolean } = {}): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: libraryKeys.all }),
    queryClient.invalidateQueries({ queryKey: CURRENT_USER_QUERY_KEY }),
    options.rubrics ? queryClient.invalidateQueries({ queryKey: RUBRICS_QUERY_KEY }) : undefined,
  ]);
}
