import GroupsOutlined from '@mui/icons-material/GroupsOutlined';
import LogoutRounded from '@mui/icons-material/LogoutRounded';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { useToast } from '../../../components/toast';
import { useSignOut } from '../api/sign-out';

/** Props for {@link AccountMenuList}. */
export interface AccountMenuListProps {
  id: string;
  /** The id of the button it opens from (the list is labelled by it). */
  buttonId: string;
  /** The button it opens from; null when closed. */
  anchorEl: HTMLElement | null;
  onClose: () => void;
  name: string;
  email: string;
}

/**
 * The account menu's list: "Team" and "Sign out" under the teacher's name and address. Loaded
 * from its own chunk the first time the menu opens (docs/performance.md, "First load").
 */
export function AccountMenuList({ id: menuId, buttonId, anchorEl, onClose, name, email }: AccountMenuListProps) {
  const signOut = useSignOut();
  const { showToast } = useToast();

  const handleSignOut = () => {
    signOut.mutate(
      {},
      {
        onError: () => {
          onClose();
          showToast({ type: 'error', message: "Couldn't sign out. Please try again." });
        },
      },
    );
  };

  return (
    <Menu
      id={menuId}
      anchorEl={anchorEl}
      open={Boolean(anchorEl)}
      onClose={onClose}
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
      <MenuItem component={RouterLink} to="/team" onClick={onClose}>
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
  );
}
