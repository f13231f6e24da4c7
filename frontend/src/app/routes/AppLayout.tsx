import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Toolbar from '@mui/material/Toolbar';
import { Link as RouterLink, Outlet, useLocation, useNavigation } from 'react-router';
import { lazyComponent } from '../../components/lazy-component';
import { Wordmark } from '../../components/Wordmark';
import { AccountMenu } from '../../features/auth/components/AccountMenu';
import { DemoModelBanner } from '../../features/app-config';
import { NotificationsBell } from '../../features/library/components/NotificationsBell';
import { usePendingToast } from '../../features/library/pending-toast';

/** The sections of the app bar; a section is current on its own pages and on those listed in `also`. */
const sections = [
  { to: '/library', label: 'Library' },
  { to: '/rubrics', label: 'Rubrics' },
  { to: '/assistants', label: 'Assistants' },
  { to: '/tools', label: 'Tools', also: ['/workflows'] },
  { to: '/chat', label: 'Chat' },
];

/** The bar under the app bar while a page's code loads: only a later navigation draws it, so it loads then. */
const LinearProgress = lazyComponent(() => import('@mui/material/LinearProgress').then((m) => m.default));

const under = (pathname: string, path: string) => pathname === path || pathname.startsWith(`${path}/`);

/**
 * Frame for signed-in pages: an app bar (Markwell name, sections, notifications, account menu)
 * above the page content. On phones the sections move to a second row.
 */
export function AppLayout() {
  usePendingToast();
  const { pathname } = useLocation();
  // A page opened for the first time loads its code first; the current page stays until then.
  const loadingPage = useNavigation().state === 'loading';
  return (
    <Box sx={{ minHeight: '100dvh', display: 'flex', flexDirection: 'column' }}>
      {/* On a phone the bar is compact and scrolls away with the page (on 844 px it took 160); from sm up it stays. */}
      <AppBar position="sticky" sx={{ position: { xs: 'static', sm: 'sticky' } }}>
        <Container maxWidth="lg">
          <Toolbar disableGutters sx={{ minHeight: { xs: 48, sm: 64 }, flexWrap: 'wrap', columnGap: 2 }}>
            <Link component={RouterLink} to="/library" underline="none" aria-label="Markwell home" sx={{ display: 'inline-flex' }}>
              <Wordmark size={28} />
            </Link>
            <Box
              component="nav"
              aria-label="Sections"
              sx={{ display: 'flex', gap: 0.5, order: { xs: 3, sm: 0 }, width: { xs: '100%', sm: 'auto' }, pb: { xs: 0.5, sm: 0 }, mt: { xs: -0.5, sm: 0 } }}
            >
              {sections.map((s) => {
                const active = [s.to, ...(s.also ?? [])].some((path) => under(pathname, path));
                return (
                  <Button
                    key={s.to}
                    component={RouterLink}
                    to={s.to}
                    className={active ? 'active' : undefined}
                    aria-current={active ? 'page' : undefined}
                    size="small"
                    color="inherit"
                    sx={{ fontWeight: 500, color: 'text.secondary', '&.active': { color: 'primary.main', bgcolor: 'action.selected' } }}
                  >
                    {s.label}
                  </Button>
                );
              })}
            </Box>
            <Box sx={{ flex: 1 }} />
            <NotificationsBell />
            <AccountMenu />
          </Toolbar>
        </Container>
        <DemoModelBanner />
        {loadingPage && (
          <LinearProgress aria-label="Opening the page" sx={{ position: 'absolute', left: 0, right: 0, bottom: 0, height: 3 }} />
        )}
      </AppBar>
      <Container component="main" maxWidth="lg" sx={{ flex: 1, pt: { xs: 3, sm: 5 }, pb: { xs: 10, sm: 12 } }}>
        <Outlet />
      </Container>
    </Box>
  );
}
