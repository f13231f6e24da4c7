import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import { copyText } from '../../../lib/clipboard';
import { useCreateInviteLink } from '../api/create-invite-link';
import type { CreatedInvite } from '../api/invite-member';
import { expiryOf } from './invite-dates';
import { SectionCard } from './SectionCard';

/**
 * The owner's invitation links: "Create invitation link" makes one, shown here with "Copy link".
 * Whoever opens it first, signed in, joins the team, until it expires. The page shows this
 * section to the owner only.
 */
export function InviteLinkSection() {
  const { showToast } = useToast();
  const create = useCreateInviteLink();
  const [link, setLink] = useState<CreatedInvite | null>(null);

  const make = () => {
    if (create.isPending) return;
    create.mutate(undefined, {
      onSuccess: (invite) => {
        setLink(invite);
        showToast({ type: 'success', message: 'Invitation link created' });
      },
      onError: (error) => {
        showToast({ type: 'error', message: errorMessage(error, "Couldn't create the invitation link. Please try again.") });
      },
    });
  };

  const copy = async (url: string) => {
    if (await copyText(url)) {
      showToast({ type: 'success', message: 'Invitation link copied' });
    } else {
      showToast({ type: 'error', message: `Couldn't copy the link. Here it is: ${url}` });
    }
  };

  const expiry = link ? expiryOf(link.expiresAt) : '';

  return (
    <SectionCard
      title="Invite with a link"
      description="Anyone who opens the link while signed in joins your team. A link works once and expires."
    >
      {link && (
        <Box sx={{ mb: 2 }}>
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: { xs: 'wrap', sm: 'nowrap' } }}>
            <TextField
              label="New invitation link"
              value={link.url}
              size="small"
              fullWidth
              slotProps={{ htmlInput: { readOnly: true } }}
              onFocus={(event) => event.target.select()}
            />
            <Button variant="outlined" onClick={() => void copy(link.url)} sx={{ height: 40, flexShrink: 0 }}>
              Copy link
            </Button>
          </Box>
          {expiry && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              Works once, until {expiry}.
            </Typography>
          )}
        </Box>
      )}
      <Button variant={link ? 'text' : 'contained'} onClick={make} loading={create.isPending}>
        {link ? 'Create another link' : 'Create invitation link'}
      </Button>
    </SectionCard>
  );
}
