import Button from '@mui/material/Button';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import { useLeaveTeam } from '../api/leave-team';
import { SectionCard } from './SectionCard';

/** Props for {@link LeaveTeamSection}. */
export interface LeaveTeamSectionProps {
  teamName: string;
  /** The user is the team's only member: leaving would only abandon its library. */
  alone: boolean;
}

/** "Leave team", behind a confirmation. Afterwards the page shows the user's new team. */
export function LeaveTeamSection({ teamName, alone }: LeaveTeamSectionProps) {
  const { showToast } = useToast();
  const leave = useLeaveTeam();
  const [open, setOpen] = useState(false);

  const confirm = () => {
    leave.mutate(undefined, {
      onSuccess: () => {
        setOpen(false);
        showToast({ type: 'success', message: 'You left the team' });
      },
      onError: (error) => {
        showToast({ type: 'error', message: errorMessage(error, "Couldn't leave the team. Please try again.") });
      },
    });
  };

  return (
    <SectionCard
      title="Leave team"
      description={
        alone
          ? "You're the only member of this team, so there is nothing to leave."
          : "You'll lose access to this team's assignments and rubrics and get a new team of your own."
      }
    >
      <Button variant="outlined" color="error" onClick={() => setOpen(true)} disabled={alone}>
        Leave team
      </Button>
      <ConfirmDialog
        open={open}
        title={`Leave ${teamName}?`}
        description={
          <>
            You&apos;ll lose access to this team&apos;s assignments and rubrics and get a new, empty team of your own.
            To come back, someone on the team will need to invite you again.
          </>
        }
        confirmLabel="Leave team"
        pending={leave.isPending}
        onConfirm={confirm}
        onClose={() => setOpen(false)}
      />
    </SectionCard>
  );
}
