import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { PageSpinner } from '../../../components/PageSpinner';
import { useCurrentUser } from '../../../lib/current-user';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useMembers } from '../api/get-members';
import { InviteLinkSection } from './InviteLinkSection';
import { InviteSection } from './InviteSection';
import { LeaveTeamSection } from './LeaveTeamSection';
import { MembersSection } from './MembersSection';
import { PendingInvitesSection } from './PendingInvitesSection';

/** A column on wide screens; on phones its cards join the page's single column (and its order). */
const column = {
  display: { xs: 'contents', md: 'flex' },
  flexDirection: 'column',
  gap: 3,
  minWidth: 0,
} as const;

/**
 * The team page: the team's name, its members (the owner can remove others), an invite form,
 * invitation links (the owner's), pending invitations, and "Leave team". Two columns on wide
 * screens, one on phones.
 */
export function TeamPage() {
  useDocumentTitle('Team');
  const user = useCurrentUser();
  const members = useMembers();

  if (user.isPending || members.isPending) return <PageSpinner label="Loading your team" />;

  if (user.isError || members.isError) {
    return (
      <>
        <Typography variant="h1" sx={{ mb: 3 }}>
          Team
        </Typography>
        <Alert
          severity="error"
          action={
            <Button
              color="inherit"
              size="small"
              onClick={() => {
                void user.refetch();
                void members.refetch();
              }}
            >
              Try again
            </Button>
          }
        >
          We couldn&apos;t load your team.
        </Alert>
      </>
    );
  }

  const { team } = user.data;
  const count = members.data.members.length;
  const isOwner = user.data._id === team.ownerId;

  return (
    <>
      <Typography variant="h1">Team</Typography>
      <Typography color="text.secondary" sx={{ mt: 0.5, mb: 3, overflowWrap: 'anywhere' }}>
        {team.name} · {count} {count === 1 ? 'member' : 'members'}
      </Typography>
      {/* Two columns from md up; on phones one column in reading order, "Leave team" last. */}
      <Box
        sx={{
          display: 'grid',
          gap: 3,
          alignItems: 'start',
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 3fr) minmax(0, 2fr)' },
        }}
      >
        <Box sx={column}>
          <Box sx={{ order: 1 }}>
            <MembersSection
              members={members.data.members}
              teamName={team.name}
              currentUserId={user.data._id}
              canRemove={isOwner}
            />
          </Box>
          <Box sx={{ order: 5 }}>
            <LeaveTeamSection teamName={team.name} alone={count <= 1} />
          </Box>
        </Box>
        <Box sx={column}>
          <Box sx={{ order: 2 }}>
            <InviteSection />
          </Box>
          {isOwner && (
            <Box sx={{ order: 3 }}>
              <InviteLinkSection />
            </Box>
          )}
          <Box sx={{ order: 4 }}>
            <PendingInvitesSection invites={members.data.invites} isOwner={isOwner} />
          </Box>
        </Box>
      </Box>
    </>
  );
}
