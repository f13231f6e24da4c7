import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateTeam } from './invalidate';
import type { CreatedInvite } from './invite-member';
import { rememberInviteLink } from './invite-links';

/**
 * Makes an invitation link (owner only; others get 403): whoever opens it first, signed in, joins
 * the team, until it expires.
 */
export async function createInviteLink(): Promise<CreatedInvite> {
  const data = await api.post<{ invite: CreatedInvite }>('/api/v1/db/team/invite-link', {});
  return data.invite;
}

/** Makes an invitation link, remembers it for "Copy link", and refreshes the team. */
export function useCreateInviteLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createInviteLink,
    onSuccess: async (invite) => {
      if (invite?.url) rememberInviteLink(queryClient, invite._id, invite.url);
      await invalidateTeam(queryClient);
    },
  });
}
