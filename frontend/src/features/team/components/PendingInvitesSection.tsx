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
import { SectionCard } from './SectionCard';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

function invitedOn(createdAt: string): string {
  const date = new Date(createdAt);
  return Number.isNaN(date.getTime()) ? 'Invited' : `Invited ${dateFormat.format(date)}`;
}

/**
 * Invitations not yet accepted, each with "Copy link" (when this page knows the link) and
 * "Cancel".
 */
export function PendingInvitesSection({ invites }: { invites: TeamInvite[] }) {
  const { showToast } = useToast();
  const cancelInvite = useCancelInvite();
  const links = useInviteLinks();

  const copy = async (invite: TeamInvite, url: string) => {
    if (await copyText(url)) {
      showToast({ type: 'success', message: `Invitation link for ${invite.email} copied` });
    } else {
      showToast({ type: 'error', message: `Couldn't copy the link. Here it is: ${url}` });
    }
  };

  const cancel = (invite: TeamInvite) => {
    cancelInvite.mutate(
      { inviteId: invite._id },
      {
        onSuccess: () => showToast({ type: 'success', message: `Invitation to ${invite.email} cancelled` }),
        onError: (error) =>
          showToast({ type: 'error', message: errorMessage(error, "Couldn't cancel the invitation. Please try again.") }),
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
            const url = invite.url ?? links[invite._id];
            const cancelling = cancelInvite.isPending && cancelInvite.variables?.inviteId === invite._id;
            return (
              <ListItem
                key={invite._id}
                disableGutters
                divider={index < invites.length - 1}
                sx={{ gap: 1, py: 1.25, flexWrap: 'wrap', alignItems: 'center' }}
              >
                <Box sx={{ flex: '1 1 180px', minWidth: 0 }}>
                  <Typography sx={{ fontWeight: 500, overflowWrap: 'break-word' }}>
                    <EmailText email={invite.email} />
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {invitedOn(invite.createdAt)}
                  </Typography>
                </Box>
                <Box sx={{ display: 'flex', gap: 0.5, ml: 'auto' }}>
                  {url && (
                    <Button size="small" onClick={() => void copy(invite, url)} data-invite-url={url} aria-label={`Copy link for ${invite.email}`}>
                      Copy link
                    </Button>
                  )}
                  <Button
                    size="small"
                    color="error"
                    onClick={() => cancel(invite)}
                    loading={cancelling}
                    aria-label={`Cancel invitation for ${invite.email}`}
                  >
                    Cancel
                  </Button>
                </Box>
              </ListItem>
            );
          })}
        </List>
      )}
    </SectionCard>
  );
}
