import { Outlet, useLocation, useNavigate } from 'react-router';
import { PageSpinner } from '../../../components/PageSpinner';
import { signInPath } from '../session/callback-url';
import { useSession } from '../session/use-session';

/**
 * Layout route for pages that need a session. While the session loads it shows a spinner; when
 * there is none (at first, or after another tab signs out) it replaces the address with the
 * sign-in page, carrying `error=SessionRequired` and the current path as the callback URL.
 */
export function RequireAuth() {
  const navigate = useNavigate();
  const location = useLocation();
  const { status } = useSession({
    required: true,
    onUnauthenticated: () => {
      void navigate(signInPath({ error: 'SessionRequired', callbackUrl: location.pathname + location.search }), {
        replace: true,
      });
    },
  });

  if (status !== 'authenticated') return <PageSpinner fullPage label="Loading your session" />;
  return <Outlet />;
}
