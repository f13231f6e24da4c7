import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useId, useState, type MouseEvent } from 'react';
import { lazyComponent } from '../../../components/lazy-component';
import { UserAvatar } from '../../../components/UserAvatar';
import { useSession } from '../session/use-session';

const AccountMenuList = lazyComponent(() => import('./AccountMenuList').then((m) => m.AccountMenuList));

/**
 * The signed-in teacher's avatar and name in the app bar, opening a menu with "Team" and
 * "Sign out". The menu is a standard MUI menu: arrow keys move, Enter picks, Escape closes.
 */
export function AccountMenu() {
  const { data: session } = useSession();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // The menu (MUI's Menu and the sign-out) loads the first time it opens.
  const [opened, setOpened] = useState(false);
  const menuId = useId();
  const buttonId = useId();

  if (!session) return null;
  const name = session.user.name?.trim() || session.user.email || 'Account';
  const email = session.user.email ?? '';
  const open = Boolean(anchor);
  if (open && !opened) setOpened(true);
  const close = () => setAnchor(null);

  return (
    <>
      <Button
        id={buttonId}
        color="inherit"
        aria-label={`Account menu for ${name}`}
        aria-haspopup="menu"
        aria-controls={open ? menuId : undefined}
        aria-expanded={open ? 'true' : undefined}
        onClick={(event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget)}
        sx={{ gap: 1, px: { xs: 0.5, sm: 1 }, minWidth: 0, borderRadius: 999, fontWeight: 500 }}
      >
        <UserAvatar name={name} image={session.user.image} size={32} />
        <Box
          component="span"
          sx={{
            display: { xs: 'none', sm: 'inline' },
            maxWidth: 200,
            overflow: 'hidden',
            textOverflow: 'ellipsis',
            whiteSpace: 'nowrap',
          }}
        >
          {name}
        </Box>
      </Button>
      {opened && <AccountMenuList id={menuId} buttonId={buttonId} anchorEl={anchor} onClose={close} name={name} email={email} />}
    </>
  );
}
