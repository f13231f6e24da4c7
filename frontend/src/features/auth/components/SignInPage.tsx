import KeyRounded from '@mui/icons-material/KeyRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Divider from '@mui/material/Divider';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Navigate, useSearchParams } from 'react-router';
import { PageSpinner } from '../../../components/PageSpinner';
import { Wordmark } from '../../../components/Wordmark';
import { useDocumentTitle } from '../../../lib/use-document-title';
import type { AuthProvider } from '../api/get-providers';
import { useProviders } from '../api/get-providers';
import { useSignIn } from '../api/sign-in';
import { DEFAULT_CALLBACK_PATH, safeCallbackPath } from '../session/callback-url';
import { useSession } from '../session/use-session';
import { DevSignInForm } from './DevSignInForm';
import { GoogleSignInButton } from './GoogleSignInButton';
import { NETWORK_ERROR, signInErrorMessage } from './sign-in-error';

/** Providers shown as buttons: Google first, then the OIDC issuer, then any other OAuth provider. */
function oauthProviders(providers: Record<string, AuthProvider>): AuthProvider[] {
  const rank = (p: AuthProvider) => (p.id === 'google' ? 0 : p.id === 'oidc' ? 1 : 2);
  return Object.values(providers)
    .filter((p) => p.type === 'oauth')
    .sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
}

/**
 * The sign-in page, which is also the auth error page: it explains `?error=` (SessionRequired or
 * another NextAuth error name), offers the configured providers (a Google button, a button for
 * the OIDC issuer, the development form) and passes `?callbackUrl=` on. A signed-in visitor goes
 * straight to the callback URL.
 */
export function SignInPage() {
  useDocumentTitle('Sign in');
  const [params, setParams] = useSearchParams();
  const callbackPath = safeCallbackPath(params.get('callbackUrl'));
  const errorIsNotice = params.get('error') === 'SessionRequired';
  // A first visit to the home page is a welcome, not an error: "Please sign in to continue." is kept
  // for a page deeper in the app that needed a session.
  const welcome = errorIsNotice && (callbackPath === '/' || callbackPath === DEFAULT_CALLBACK_PATH);
  const errorMessage = welcome ? null : signInErrorMessage(params.get('error'));

  const session = useSession();
  const providers = useProviders();
  const signIn = useSignIn();

  if (session.status === 'authenticated') return <Navigate to={callbackPath} replace />;
  if (session.status === 'loading') return <PageSpinner fullPage />;

  // Until the page unloads after a successful sign-in, keep the buttons locked.
  const busy = signIn.isPending || (signIn.isSuccess && signIn.data.ok);
  const busyProvider = busy ? signIn.variables?.provider.id : undefined;

  const start = (provider: AuthProvider, fields?: Record<string, string>) => {
    signIn.mutate(
      { provider, callbackUrl: callbackPath, fields },
      {
        onSuccess: (result) => {
          if (!result.ok) showError(result.error ?? 'Signin');
        },
        onError: () => showError(NETWORK_ERROR),
      },
    );
  };

  const showError = (error: string) => {
    const next = new URLSearchParams(params);
    next.set('error', error);
    setParams(next, { replace: true });
  };

  const all = providers.data ?? {};
  const buttons = oauthProviders(all);
  const credentials = Object.values(all).find((p) => p.type === 'credentials');
  const google = buttons.find((p) => p.id === 'google');
  const others = buttons.filter((p) => p.id !== 'google');

  return (
    <Box
      component="main"
      sx={{
        minHeight: '100dvh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        px: 2,
        py: { xs: 4, sm: 3 },
      }}
    >
      <Stack spacing={1.5} sx={{ alignItems: 'center', textAlign: 'center', mb: 3 }}>
        <Wordmark size={40} component="h1" />
        <Typography color="text.secondary" sx={{ maxWidth: 360 }}>
          Assignments, rubrics and AI-assisted feedback for your teaching team.
        </Typography>
      </Stack>

      <Card sx={{ width: '100%', maxWidth: 420 }}>
        <CardContent sx={{ p: { xs: 3, sm: 4 }, '&:last-child': { pb: { xs: 3, sm: 4 } } }}>
          <Typography variant="h2" sx={{ fontSize: '1.5rem', mb: 0.5 }}>
            Sign in
          </Typography>
          {welcome && (
            <Typography sx={{ mb: 0.5 }}>Welcome! Sign in to see your team’s assignments, rubrics and assistants.</Typography>
          )}
          <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
            {buttons.length === 0 && credentials
              ? 'Enter your name and email to continue.'
              : 'Use your school account to continue.'}
          </Typography>

          {errorMessage && (
            <Alert severity={errorIsNotice ? 'warning' : 'error'} sx={{ mb: 2.5 }}>
              {errorMessage}
            </Alert>
          )}

          {providers.isPending && (
            <Stack spacing={1.5} aria-hidden="true">
              <Skeleton variant="rounded" height={40} />
              <Skeleton variant="rounded" height={40} />
            </Stack>
          )}

          {providers.isError && (
            <Alert
              severity="error"
              action={
                <Button color="inherit" size="small" onClick={() => void providers.refetch()} loading={providers.isFetching}>
                  Try again
                </Button>
              }
            >
              Sign-in is unavailable right now.
            </Alert>
          )}

          {providers.isSuccess && (
            <>
              {buttons.length > 0 && (
                <Stack spacing={1.5}>
                  {google && (
                    <GoogleSignInButton
                      onClick={() => start(google)}
                      loading={busyProvider === google.id}
                      disabled={busy}
                    />
                  )}
                  {others.map((provider) => (
                    <Button
                      key={provider.id}
                      variant="outlined"
                      size="large"
                      startIcon={<KeyRounded />}
                      onClick={() => start(provider)}
                      loading={busyProvider === provider.id}
                      loadingPosition="start"
                      disabled={busy}
                      sx={{ height: 40, borderRadius: '20px' }}
                    >
                      Sign in with {provider.name}
                    </Button>
                  ))}
                </Stack>
              )}

              {buttons.length > 0 && credentials && (
                <Divider sx={{ my: 2.5, typography: 'body2', color: 'text.secondary' }}>or</Divider>
              )}

              {credentials && (
                <>
                  {buttons.length > 0 && (
                    <Typography variant="subtitle2" component="h3" sx={{ mb: 1.5 }}>
                      Development sign-in
                    </Typography>
                  )}
                  <DevSignInForm
                    pending={busyProvider === credentials.id}
                    onSubmit={({ name, email }) => start(credentials, { name, email })}
                  />
                </>
              )}

              {buttons.length === 0 && !credentials && (
                <Alert severity="info">
                  No sign-in method is set up on this server yet. Please tell your Markwell administrator.
                </Alert>
              )}
            </>
          )}
        </CardContent>
      </Card>
    </Box>
  );
}
