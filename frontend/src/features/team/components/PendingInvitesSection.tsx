import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Typography from '@mui/material/Typography';
import { EmailText } from '../../../components/EmailText';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import { copyText } from '../../../lib/clipboard';
import { useCancelInvite } from '../api/cancel-invite';
import type { TeamInvite } from '../api/get-members';
import { useInviteLinks } from '../api/invite-links';
import { expiryOf, invitedOn } from './invite-dates';
import { SectionCard } from './SectionCard';

/** How a row names its invitation: the email, or the link and its expiry. */
function describe(invite: TeamInvite) {
  if (invite.kind === 'link') {
    const expiry = expiryOf(invite.expiresAt);
    return {
      title: 'Invitation link',
      detail: expiry ? `Expires ${expiry}` : 'Expires soon',
      copyLabel: `Copy invitation link expiring ${expiry}`,
      cancelLabel: `Revoke invitation link expiring ${expiry}`,
      copied: 'Invitation link copied',
      cancelled: 'Invitation link revoked',
      cancelFailed: "Couldn't revoke the invitation link. Please try again.",
    };
  }
  return {
    title: <EmailText email={invite.email} />,
    detail: invitedOn(invite.createdAt),
    copyLabel: `Copy link for ${invite.email}`,
    cancelLabel: `Cancel invitation for ${invite.email}`,
    copied: `Invitation link for ${invite.email} copied`,
    cancelled: `Invitation to ${invite.email} cancelled`,
    cancelFailed: "Couldn't cancel the invitation. Please try again.",
  };
}

/** Props for {@link PendingInvitesSection}. */
export interface PendingInvitesSectionProps {
  invites: TeamInvite[];
  /** The signed-in user owns the team: only they may revoke invitation links. */
  isOwner: boolean;
}

/**
 * Invitations not yet accepted: email invitations (any member may cancel them) and invitation
 * links with their expiry (the owner may revoke them). Each has "Copy link" when this page knows
 * the link.
 */
export function PendingInvitesSection({ invites, isOwner }: PendingInvitesSectionProps) {
  const { showToast } = useToast();
  const cancelInvite = useCancelInvite();
  const links = useInviteLinks();

  const copy = async (url: string, copied: string) => {
    if (await copyText(url)) {
      showToast({ type: 'success', message: copied });
    } else {
      showToast({ type: 'error', message: `Couldn't copy the link. Here it is: ${url}` });
    }
  };

  const cancel = (invite: TeamInvite) => {
    const text = describe(invite);
    cancelInvite.mutate(
      { inviteId: invite._id },
      {
        onSuccess: () => showToast({ type: 'success', message: text.cancelled }),
        onError: (error) => showToast({ type: 'error', message: errorMessage(error, text.cancelFailed) }),
      },
    );
  };

  return (
    <SectionCard title="Pending invitations">
      {invites.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No pending invitations.
        </Typography>
      ) : (
        <List disablePadding aria-label="Pending invitations">
          {invites.map((invite, index) => {
            const text = describe(invite);
            const url = invite.url ?? links[invite._id];
            const cancelling = cancelInvite.isPending && cancelInvite.variables?.inviteId === invite._id;
            const canCancel = invite.kind !== 'link' || isOwner;
            return (
              <ListItem
                key={invite._id}
                disableGutters
                divider={index < invites.length - 1}
                sx={{ gap: 1, py: 1.25, flexWrap: 'wrap', alignItems: 'center' }}
              >
                <Box sx={{ flex: '1 1 180px', minWidth: 0 }}>
                  <Typography sx={{ fontWeight: 500, overflowWrap: 'break-word' }}>{text.title}</Typography>
                  <Typography variant="body2" color="text.secondary">
                    {text.detail}
                  </Typography>
                </Box>
                <Box sx={{ display: 'flex', gap: 0.5, ml: 'auto' }}>
                  {url && (
                    <Button size="small" onClick={() => void copy(url, text.copied)} data-invite-url={url} aria-label={text.copyLabel}>
                      Copy link
                    </Button>
                  )}
                  {canCancel && (
                    <Button size="small" color="error" onClick={() => cancel(invite)} loading={cancelling} aria-label={text.cancelLabel}>
                      {invite.kind === 'link' ? 'Revoke' : 'Cancel'}
                    </Button>
                  )}
                </Box>
              </ListItem>
            );
          })}
        </List>
      )}
    </SectionCard>
  );
}
