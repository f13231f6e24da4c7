import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useSearchParams } from 'react-router';
import { Wordmark } from '../../../components/Wordmark';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { signInErrorMessage } from './sign-in-error';

/**
 * The sign-in page. Shows why the teacher landed here (`?error=SessionRequired` or another
 * NextAuth error name), a placeholder where identity providers will go, and a development
 * sign-in form that stays disabled until real sign-in ships.
 */
export function SignInPage() {
  useDocumentTitle('Sign in');
  const [params] = useSearchParams();
  const errorMessage = signInErrorMessage(params.get('error'));

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
          <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
            Use your school account to continue.
          </Typography>

          {errorMessage && (
            <Alert severity="warning" sx={{ mb: 2.5 }}>
              {errorMessage}
            </Alert>
          )}

          <Box
            sx={{
              border: 1,
              borderStyle: 'dashed',
              borderColor: 'divider',
              borderRadius: 2,
              px: 2,
              py: 2,
              textAlign: 'center',
            }}
          >
            <Typography variant="body2" color="text.secondary">
              School account sign-in (Google, Microsoft) will appear here.
            </Typography>
          </Box>

          <Divider sx={{ my: 2.5, typography: 'body2', color: 'text.secondary' }}>Development sign-in</Divider>

          <Box component="form" noValidate onSubmit={(e) => e.preventDefault()} aria-label="Development sign-in">
            <Stack spacing={2}>
              <TextField label="Name" name="name" autoComplete="name" />
              <TextField label="Email" name="email" type="email" autoComplete="email" />
              <Button type="submit" variant="contained" size="large" disabled aria-describedby="signin-note">
                Continue
              </Button>
              <Typography id="signin-note" variant="body2" color="text.secondary" sx={{ textAlign: 'center' }}>
                Sign-in arrives with the next release.
              </Typography>
            </Stack>
          </Box>
        </CardContent>
      </Card>
    </Box>
  );
}
