import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateTeam } from './invalidate';
import { rememberInviteLink } from './invite-links';

/** A new invitation with the link to share. */
export interface CreatedInvite {
  _id: string;
  kind: 'email' | 'link';
  email: string;
  expiresAt: string | null;
  url: string;
}

/** Invites a colleague by email; rejects with the server's message for a bad or duplicate email. */
export async function inviteMember({ email }: { email: string }): Promise<CreatedInvite> {
  const data = await api.post<{ invite: CreatedInvite }>('/api/v1/db/team/invite', { email });
  return data.invite;
}

/** Invites a colleague, remembers the invitation link, and refreshes the team. */
export function useInviteMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: inviteMember,
    onSuccess: async (invite) => {
      if (invite?.url) rememberInviteLink(queryClient, invite._id, invite.url);
      await invalidateTeam(queryClient);
    },
  });
}
