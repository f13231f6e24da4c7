import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** The team joined by accepting an invitation. */
export interface JoinedTeam {
  _id: string;
  name: string;
}

/** Accepts the invitation with this token; rejects with 404 for an unknown or used token. */
export async function acceptInvite({ token }: { token: string }): Promise<JoinedTeam> {
  const data = await api.post<{ team: JoinedTeam }>('/api/v1/db/team/accept-invite', { token });
  return data.team;
}

/**
 * Accepts an invitation. Every cached query is invalidated: the user has moved to another team,
 * so everything team-scoped has changed.
 */
export function useAcceptInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acceptInvite,
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
