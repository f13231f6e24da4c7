import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { PageSpinner } from '../../../components/PageSpinner';
import { useToast } from '../../../components/toast';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useAcceptInvite } from '../api/accept-invite';

type Outcome = { kind: 'pending' } | { kind: 'invalid'; title: string; detail: string } | { kind: 'failed' };

/** The server answered that the invitation cannot be used (unknown, used, expired, cancelled, not for you). */
function isRefusal(error: unknown): boolean {
  return error instanceof ApiError && error.status >= 400 && error.status < 500;
}

const INVALID_DETAIL = 'It may have been cancelled or used already. Ask the colleague who invited you for a new link.';
const INVALID_TITLE = 'This invitation is no longer valid.';

/**
 * What to say about a refusal: an unknown or cancelled invitation gets the general explanation;
 * a used or expired one (400) and one for another email or an unverified one (403) get the
 * server's own words.
 */
function refusal(error: unknown): { title: string; detail: string } {
  if (!(error instanceof ApiError) || error.status === 404) return { title: INVALID_TITLE, detail: INVALID_DETAIL };
  const detail = errorMessage(error, INVALID_DETAIL);
  return { title: error.status === 403 ? "You can't accept this invitation." : INVALID_TITLE, detail };
}

/**
 * `/invite/:token`: accepts the invitation as soon as the (signed-in) teacher arrives, then
 * shows the library of the team they joined. An unknown, used or expired invitation, or one for
 * another email, gets a clear message.
 */
export function AcceptInvitePage() {
  useDocumentTitle('Join team');
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const { showToast } = useToast();
  const accept = useAcceptInvite();
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'pending' });
  const [attempt, setAttempt] = useState(0);
  // Accept once per token and attempt, even when React runs effects twice in development.
  const started = useRef<string | null>(null);

  const { mutateAsync } = accept;
  useEffect(() => {
    const key = `${token}#${attempt}`;
    if (started.current === key) return;
    started.current = key;
    setOutcome({ kind: 'pending' });
    mutateAsync({ token }).then(
      (team) => {
        showToast({ type: 'success', message: `You joined ${team.name}` });
        void navigate('/library', { replace: true });
      },
      (error: unknown) => {
        if (isRefusal(error)) {
          setOutcome({ kind: 'invalid', ...refusal(error) });
        } else {
          setOutcome({ kind: 'failed' });
        }
      },
    );
  }, [token, attempt, mutateAsync, navigate, showToast]);

  if (outcome.kind === 'pending') return <PageSpinner label="Joining the team" />;

  return (
    <Stack spacing={2} sx={{ maxWidth: 560, mx: 'auto', pt: { xs: 2, sm: 6 } }}>
      <Typography variant="h1">
        {outcome.kind === 'invalid' ? outcome.title : "We couldn't accept this invitation."}
      </Typography>
      {outcome.kind === 'invalid' ? (
        <Typography color="text.secondary">{outcome.detail}</Typography>
      ) : (
        <Alert severity="error">Markwell could not be reached. Check your connection and try again.</Alert>
      )}
      <Stack direction="row" spacing={1.5} sx={{ pt: 1 }}>
        {outcome.kind === 'failed' && (
          <Button variant="contained" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </Button>
        )}
        <Button component={RouterLink} to="/library" variant={outcome.kind === 'failed' ? 'text' : 'contained'}>
          Go to library
        </Button>
      </Stack>
    </Stack>
  );
}
