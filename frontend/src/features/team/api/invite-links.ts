import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';

/**
 * Invitation links by invite id. The server hands out a link only when the invitation is made,
 * so the page remembers the links it was given (for "Copy link") for as long as it stays open.
 * The key is outside ['team', …] so refetching the members never clears it.
 */
export const INVITE_LINKS_QUERY_KEY = ['team-invite-links'] as const;

/** Query options for the remembered links: local only, never stale, never collected. */
export function inviteLinksQueryOptions() {
  return queryOptions({
    queryKey: INVITE_LINKS_QUERY_KEY,
    queryFn: () => ({}) as Record<string, string>,
    staleTime: Infinity,
    gcTime: Infinity,
  });
}

/** Remembers the link of a new invitation. */
export function rememberInviteLink(queryClient: QueryClient, inviteId: string, url: string): void {
  queryClient.setQueryData(INVITE_LINKS_QUERY_KEY, (links: Record<string, string> | undefined) => ({
    ...links,
    [inviteId]: url,
  }));
}

/** The invitation links this page has been given, by invite id. */
export function useInviteLinks(): Record<string, string> {
  return useQuery(inviteLinksQueryOptions()).data ?? {};
}
