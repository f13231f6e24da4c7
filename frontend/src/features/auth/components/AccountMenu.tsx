import GroupsOutlined from '@mui/icons-material/GroupsOutlined';
import LogoutRounded from '@mui/icons-material/LogoutRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { useId, useState, type MouseEvent } from 'react';
import { Link as RouterLink } from 'react-router';
import { useToast } from '../../../components/toast';
import { UserAvatar } from '../../../components/UserAvatar';
import { useSignOut } from '../api/sign-out';
import { useSession } from '../session/use-session';

/**
 * The signed-in teacher's avatar and name in the app bar, opening a menu with "Team" and
 * "Sign out". The menu is a standard MUI menu: arrow keys move, Enter picks, Escape closes.
 */
export function AccountMenu() {
  const { data: session } = useSession();
  const signOut = useSignOut();
  const { showToast } = useToast();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const buttonId = useId();

  if (!session) return null;
  const name = session.user.name?.trim() || session.user.email || 'Account';
  const email = session.user.email ?? '';
  const open = Boolean(anchor);
  const close = () => setAnchor(null);

  const handleSignOut = () => {
    signOut.mutate(
      {},
      {
        onError: () => {
          close();
          showToast({ type: 'error', message: "Couldn't sign out. Please try again." });
        },
      },
    );
  };

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
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={open}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ list: { 'aria-labelledby': buttonId, dense: false }, paper: { variant: 'outlined', sx: { minWidth: 220, mt: 0.5 } } }}
      >
        <Box sx={{ px: 2, pt: 1, pb: 1.5, maxWidth: 280 }} aria-hidden="true">
          <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{name}</Typography>
          {email && (
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {email}
            </Typography>
          )}
        </Box>
        <Divider />
        <MenuItem component={RouterLink} to="/team" onClick={close}>
          <ListItemIcon>
            <GroupsOutlined fontSize="small" />
          </ListItemIcon>
          <ListItemText>Team</ListItemText>
        </MenuItem>
        <MenuItem onClick={handleSignOut} disabled={signOut.isPending || signOut.isSuccess}>
          <ListItemIcon>
            <LogoutRounded fontSize="small" />
          </ListItemIcon>
          <ListItemText>{signOut.isPending || signOut.isSuccess ? 'Signing out…' : 'Sign out'}</ListItemText>
        </MenuItem>
      </Menu>
    </>
  );
}
