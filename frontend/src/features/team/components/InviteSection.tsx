import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import { isValidEmail } from '../../../lib/validation';
import { useInviteMember } from '../api/invite-member';
import { SectionCard } from './SectionCard';

function validate(email: string): string | null {
  if (!email.trim()) return 'Enter an email address.';
  if (!isValidEmail(email)) return 'Enter a valid email address, like name@school.org.';
  return null;
}

/** Invite a colleague by email. The new invitation appears under "Pending invitations". */
export function InviteSection() {
  const { showToast } = useToast();
  const invite = useInviteMember();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState(false);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (invite.isPending) return;
    const problem = validate(email);
    setSubmitted(true);
    setError(problem);
    if (problem) return;
    const address = email.trim();
    invite.mutate(
      { email: address },
      {
        onSuccess: () => {
          showToast({ type: 'success', message: `Invitation sent to ${address}` });
          setEmail('');
          setSubmitted(false);
        },
        onError: (err) => {
          showToast({ type: 'error', message: errorMessage(err, "Couldn't send the invitation. Please try again.") });
        },
      },
    );
  };

  return (
    <SectionCard
      title="Invite a colleague"
      description="They join your team when they sign in with this email, or open the invitation link while signed in with it."
    >
      <Box
        component="form"
        noValidate
        onSubmit={handleSubmit}
        aria-label="Invite a colleague"
        sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start', flexWrap: { xs: 'wrap', sm: 'nowrap' } }}
      >
        <TextField
          label="Email address"
          name="email"
          type="email"
          autoComplete="off"
          size="small"
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            if (submitted) setError(validate(e.target.value));
          }}
          error={Boolean(error)}
          helperText={error}
          disabled={invite.isPending}
        />
        <Button
          type="submit"
          variant="contained"
          loading={invite.isPending}
          sx={{ height: 40, flexShrink: 0, width: { xs: '100%', sm: 'auto' } }}
        >
          Invite
        </Button>
      </Box>
    </SectionCard>
  );
}
