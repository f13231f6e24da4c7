import AlternateEmailRounded from '@mui/icons-material/AlternateEmailRounded';
import DeleteOutlineRounded from '@mui/icons-material/DeleteOutlineRounded';
import DownloadRounded from '@mui/icons-material/DownloadRounded';
import DriveFileRenameOutlineRounded from '@mui/icons-material/DriveFileRenameOutlineRounded';
import MoreVertRounded from '@mui/icons-material/MoreVertRounded';
import TextSnippetOutlined from '@mui/icons-material/TextSnippetOutlined';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useId, useState, type ReactNode } from 'react';
import type { Submission } from '../api/types';

/** What a teacher can do with one submission. */
export type SubmissionAction = 'rename' | 'email' | 'view' | 'download' | 'delete';

const ITEMS: { action: SubmissionAction; label: string; icon: ReactNode }[] = [
  { action: 'rename', label: 'Rename', icon: <DriveFileRenameOutlineRounded fontSize="small" /> },
  { action: 'email', label: 'Set student email', icon: <AlternateEmailRounded fontSize="small" /> },
  { action: 'view', label: 'View text', icon: <TextSnippetOutlined fontSize="small" /> },
  { action: 'download', label: 'Download original', icon: <DownloadRounded fontSize="small" /> },
  { action: 'delete', label: 'Delete', icon: <DeleteOutlineRounded fontSize="small" /> },
];

/**
 * The "More" button of a submission row and its menu: rename, set the student's email, view the
 * text, download the original file (rows with a file), delete. A standard menu button, usable from the keyboard.
 */
export function SubmissionActionsMenu({ submission, onAction }: { submission: Submission; onAction: (action: SubmissionAction) => void }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const buttonId = useId();
  const menuId = useId();
  const open = Boolean(anchor);

  return (
    <>
      <IconButton
        id={buttonId}
        aria-label={`Actions for ${submission.name}`}
        aria-haspopup="menu"
        aria-controls={open ? menuId : undefined}
        aria-expanded={open ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        sx={{ color: 'text.secondary' }}
      >
        <MoreVertRounded />
      </IconButton>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={open}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ list: { 'aria-labelledby': buttonId }, paper: { variant: 'outlined', sx: { minWidth: 200, mt: 0.5 } } }}
      >
        {ITEMS.filter(({ action }) => action !== 'download' || submission.location !== '').map(({ action, label, icon }) => (
          <MenuItem
            key={action}
            onClick={() => {
              setAnchor(null);
              onAction(action);
            }}
            sx={action === 'delete' ? { color: 'error.main', '& .MuiListItemIcon-root': { color: 'error.main' } } : undefined}
          >
            <ListItemIcon>{icon}</ListItemIcon>
            <ListItemText>{label}</ListItemText>
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
