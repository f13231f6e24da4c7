import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { answerBoxKeys } from './keys';

/** Signed URLs expire: fetch a fresh one after this long. */
const PAGE_IMAGE_STALE_MS = 5 * 60_000;

/**
 * Fetches a signed JPEG URL of one page (0-based) of a submission (`POST db/submission/page-image`).
 */
export async function getPageImage(
  input: { submissionId: string; page: number },
  options: { signal?: AbortSignal } = {},
): Promise<string> {
  const data = await api.post<{ url?: string } | undefined>('/api/v1/db/submission/page-image', input, options);
  if (!data?.url) throw new Error('The server sent no page image');
  return data.url;
}

/** Query options for the image URL of one page of a submission. */
export function pageImageQueryOptions(submissionId: string, page: number) {
  return queryOptions({
    queryKey: answerBoxKeys.pageImage(submissionId, page),
    queryFn: ({ signal }) => getPageImage({ submissionId, page }, { signal }),
    staleTime: PAGE_IMAGE_STALE_MS,
  });
}

/** The signed image URL of one page (0-based) of a submission. */
export function usePageImage(submissionId: string, page: number) {
  return useQuery(pageImageQueryOptions(submissionId, page));
}
