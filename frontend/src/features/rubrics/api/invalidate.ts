import type { QueryClient } from '@tanstack/react-query';
import { libraryKeys, rubricKeys } from './keys';

/**
 * Refetches the lists that show rubrics: the rubric list and the library. Open rubrics are not
 * refetched: mutations put the server's answer in their cache entry directly.
 */
export async function invalidateRubricLists(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: rubricKeys.list() }),
    queryClient.invalidateQueries({ queryKey: libraryKeys.all }),
  ]);
}
