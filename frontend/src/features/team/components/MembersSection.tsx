import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import type { TeamMember } from '../api/get-members';
import { useRemoveMember } from '../api/remove-member';
import { EmailText } from '../../../components/EmailText';
import { UserAvatar } from '../../../components/UserAvatar';
import { SectionCard } from './SectionCard';

/** Props for {@link MembersSection}. */
export interface MembersSectionProps {
  members: TeamMember[];
  teamName: string;
  /** The signed-in user's id, marked "You". */
  currentUserId: string;
  /** The signed-in user owns the team and may remove others. */
  canRemove: boolean;
}

/** The team's members: avatar, name, email, "Owner" chip; the owner can remove the others. */
export function MembersSection({ members, teamName, currentUserId, canRemove }: MembersSectionProps) {
  const { showToast } = useToast();
  const removeMember = useRemoveMember();
  const [confirming, setConfirming] = useState<TeamMember | null>(null);

  const confirmRemove = () => {
    if (!confirming) return;
    const member = confirming;
    removeMember.mutate(
      { userId: member._id },
      {
        onSuccess: () => {
          setConfirming(null);
          showToast({ type: 'success', message: `${member.name} was removed from the team` });
        },
        onError: (error) => {
          showToast({ type: 'error', message: errorMessage(error, `Couldn't remove ${member.name}. Please try again.`) });
        },
      },
    );
  };

  return (
    <SectionCard title="Members">
      <List disablePadding aria-label="Members">
        {members.map((member, index) => (
          <ListItem
            key={member._id}
            disableGutters
            divider={index < members.length - 1}
            sx={{ gap: 1.5, py: 1.5, flexWrap: 'wrap', alignItems: 'center' }}
          >
            <UserAvatar name={member.name} image={member.image} />
            <Box sx={{ flex: '1 1 160px', minWidth: 0 }}>
              <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 1, rowGap: 0.5 }}>
                <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{member.name}</Typography>
                {member.isOwner && <Chip label="Owner" size="small" color="primary" variant="outlined" />}
                {member._id === currentUserId && <Chip label="You" size="small" variant="outlined" />}
              </Box>
              <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'break-word' }}>
                <EmailText email={member.email} />
              </Typography>
            </Box>
            {canRemove && member._id !== currentUserId && (
              <Button
                color="error"
                size="small"
                aria-label={`Remove ${member.name}`}
                onClick={() => setConfirming(member)}
                sx={{ ml: 'auto' }}
              >
                Remove
              </Button>
            )}
          </ListItem>
        ))}
      </List>

      <ConfirmDialog
        open={confirming !== null}
        title={`Remove ${confirming?.name ?? ''}?`}
        description={`${confirming?.name ?? ''} will lose access to ${teamName}'s assignments and rubrics, and get a team of their own.`}
        confirmLabel="Remove"
        pending={removeMember.isPending}
        onConfirm={confirmRemove}
        onClose={() => setConfirming(null)}
      />
    </SectionCard>
  );
}
