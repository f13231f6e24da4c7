import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** A member of the team. */
export interface TeamMember {
  _id: string;
  name: string;
  email: string;
  image?: string | null;
  isOwner: boolean;
}

/**
 * An invitation not yet accepted: by email (for that address only) or by link (made by the owner,
 * for whoever opens it first before it expires). `url` is present only if the server chooses to
 * repeat it.
 */
export interface TeamInvite {
  _id: string;
  kind: 'email' | 'link';
  /** The invited address; empty for a link. */
  email: string;
  createdAt: string;
  /** When a link stops working; null for an email invitation. */
  expiresAt: string | null;
  url?: string;
}

/** The team's members and pending invitations. */
export interface TeamMembers {
  members: TeamMember[];
  invites: TeamInvite[];
}

/** Cache key of the members list; every team mutation invalidates it. */
export const MEMBERS_QUERY_KEY = ['team', 'members'] as const;

/** Fetches the team's members and pending invitations. */
export async function getMembers(options: { signal?: AbortSignal } = {}): Promise<TeamMembers> {
  const data = await api.get<Partial<TeamMembers> | undefined>('/api/v1/db/team/members', options);
  return { members: data?.members ?? [], invites: data?.invites ?? [] };
}

/** Query options for the members list. */
export function membersQueryOptions() {
  return queryOptions({
    queryKey: MEMBERS_QUERY_KEY,
    queryFn: ({ signal }) => getMembers({ signal }),
  });
}

/** The team's members and pending invitations. */
export function useMembers() {
  return useQuery(membersQueryOptions());
}
