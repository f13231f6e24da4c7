import { useQuery } from '@tanstack/react-query';
import { assistantListQueryOptions } from '../../../lib/assistants';

export { assistantListQueryOptions, listAssistants } from '../../../lib/assistants';

/** The assistants the teacher can see. */
export function useAssistants() {
  return useQuery(assistantListQueryOptions());
}
