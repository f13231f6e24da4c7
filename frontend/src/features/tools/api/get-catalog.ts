import { useQuery } from '@tanstack/react-query';
import { catalogQueryOptions } from '../../../lib/catalog';

export { catalogQueryOptions, getCatalog } from '../../../lib/catalog';

/** The catalogue of tools and workflows. */
export function useCatalog() {
  return useQuery(catalogQueryOptions());
}
