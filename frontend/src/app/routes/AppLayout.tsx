import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Toolbar from '@mui/material/Toolbar';
import { Link as RouterLink, Outlet } from 'react-router';
import { Wordmark } from '../../components/Wordmark';
import { AccountMenu } from '../../features/auth/components/AccountMenu';

/** Frame for signed-in pages: an app bar (Markwell name, account menu) above the page content. */
export function AppLayout() {
  return (
    <Box sx={{ minHeight: '100dvh', display: 'flex', flexDirection: 'column' }}>
      <AppBar position="sticky">
        <Container maxWidth="lg">
          <Toolbar disableGutters sx={{ minHeight: { xs: 56, sm: 64 } }}>
            <Link component={RouterLink} to="/library" underline="none" aria-label="Markwell home" sx={{ display: 'inline-flex' }}>
              <Wordmark size={28} />
            </Link>
            <Box sx={{ flex: 1 }} />
            <AccountMenu />
          </Toolbar>
        </Container>
      </AppBar>
      <Container component="main" maxWidth="lg" sx={{ flex: 1, py: { xs: 3, sm: 5 } }}>
        <Outlet />
      </Container>
    </Box>
  );
}
