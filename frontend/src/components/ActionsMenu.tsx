import MoreVertRounded from '@mui/icons-material/MoreVertRounded';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import type { SxProps, Theme } from '@mui/material/styles';
import { useId, useState, type ReactNode } from 'react';

/** One entry of an {@link ActionsMenu}. */
export interface MenuAction {
  label: string;
  icon: ReactNode;
  onSelect: () => void;
  destructive?: boolean;
  disabled?: boolean;
}

/** Props for {@link ActionsMenu}. */
export interface ActionsMenuProps {
  /** The button's accessible name, e.g. "Actions for Essay 1". */
  label: string;
  actions: MenuAction[];
  /** More style for the button (the library raises it above its row's link). */
  buttonSx?: SxProps<Theme>;
}

/**
 * The "More" button of a row and its menu. It is a standard menu button: Enter or Space opens it,
 * arrow keys move, Enter picks, Escape closes and returns focus to the button. The menu is built
 * on the first click, not with its row: a page of fifty rows drew fifty closed menus (a popover
 * and a modal each) before its first row could be seen.
 */
export function ActionsMenu({ label, actions, buttonSx }: ActionsMenuProps) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [built, setBuilt] = useState(false);
  const buttonId = useId();
  const menuId = useId();
  const open = Boolean(anchor);

  return (
    <>
      <IconButton
        id={buttonId}
        aria-label={label}
        aria-haspopup="menu"
        aria-controls={open ? menuId : undefined}
        aria-expanded={open ? 'true' : undefined}
        onClick={(event) => {
          setBuilt(true);
          setAnchor(event.currentTarget);
        }}
        sx={[{ color: 'text.secondary' }, ...(Array.isArray(buttonSx) ? buttonSx : [buttonSx])]}
      >
        <MoreVertRounded />
      </IconButton>
      {built && (
        <Menu
          id={menuId}
          anchorEl={anchor}
          open={open}
          onClose={() => setAnchor(null)}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
          transformOrigin={{ vertical: 'top', horizontal: 'right' }}
          slotProps={{ list: { 'aria-labelledby': buttonId }, paper: { variant: 'outlined', sx: { minWidth: 200, mt: 0.5 } } }}
        >
          {actions.map((action) => (
            <MenuItem
              key={action.label}
              disabled={action.disabled}
              onClick={() => {
                setAnchor(null);
                action.onSelect();
              }}
              sx={action.destructive ? { color: 'error.main', '& .MuiListItemIcon-root': { color: 'error.main' } } : undefined}
            >
              <ListItemIcon>{action.icon}</ListItemIcon>
              <ListItemText>{action.label}</ListItemText>
            </MenuItem>
          ))}
        </Menu>
      )}
    </>
  );
}

/** The button's style on a row that is itself a link (the library's): above the row's link, so it gets the click. */
export const ABOVE_ROW_LINK = { position: 'relative', zIndex: 1 } as const;
