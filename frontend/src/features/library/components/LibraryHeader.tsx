import AddRounded from '@mui/icons-material/AddRounded';
import CreateNewFolderOutlined from '@mui/icons-material/CreateNewFolderOutlined';
import KeyboardArrowDownRounded from '@mui/icons-material/KeyboardArrowDownRounded';
import TableChartOutlined from '@mui/icons-material/TableChartOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useId, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { PageHeader } from '../../../components/PageHeader';
import { useCurrentUser } from '../../../lib/current-user';
import { ASSIGNMENT_TYPES, assignmentTypeMeta, newAssignmentPath } from '../assignment-types';
import { KindIcon } from './KindIcon';

/** The library's title and its actions: New folder, New rubric, New assignment (a menu of types). */
export function LibraryHeader({ onNewFolder }: { onNewFolder: () => void }) {
  const teamName = useCurrentUser().data?.team.name;
  return (
    <PageHeader
      title="Library"
      subtitle={teamName ? `${teamName} · shared with your team` : 'Your team\u2019s assignments, rubrics and folders.'}
      actions={
        <Box
          sx={{
            display: 'grid',
            gridTemplateColumns: { xs: '1fr 1fr', sm: 'repeat(3, auto)' },
            gap: 1,
            width: { xs: '100%', sm: 'auto' },
          }}
        >
          <Button variant="outlined" startIcon={<CreateNewFolderOutlined />} onClick={onNewFolder} sx={{ order: { xs: 2, sm: 0 }, bgcolor: 'background.paper' }}>
            New folder
          </Button>
          <Button
            component={RouterLink}
            to="/rubrics/new"
            variant="outlined"
            startIcon={<TableChartOutlined />}
            sx={{ order: { xs: 1, sm: 0 }, bgcolor: 'background.paper' }}
          >
            New rubric
          </Button>
          <NewAssignmentButton />
        </Box>
      }
    />
  );
}

/** "New assignment" and its menu of the four types, each leading to its creation page. */
function NewAssignmentButton() {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const buttonId = useId();
  const menuId = useId();
  const open = Boolean(anchor);
  const close = () => setAnchor(null);

  return (
    <>
      <Button
        id={buttonId}
        variant="contained"
        startIcon={<AddRounded />}
        endIcon={<KeyboardArrowDownRounded />}
        aria-haspopup="menu"
        aria-controls={open ? menuId : undefined}
        aria-expanded={open ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        sx={{ order: { xs: -1, sm: 0 }, gridColumn: { xs: '1 / -1', sm: 'auto' } }}
      >
        New assignment
      </Button>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={open}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ list: { 'aria-labelledby': buttonId }, paper: { variant: 'outlined', sx: { mt: 0.5, width: 320, maxWidth: 'calc(100vw - 32px)' } } }}
      >
        {ASSIGNMENT_TYPES.map((type) => {
          const meta = assignmentTypeMeta(type);
          return (
            <MenuItem key={type} component={RouterLink} to={newAssignmentPath(type)} onClick={close} aria-label={meta.label} sx={{ py: 1.25, gap: 0.5 }}>
              <ListItemIcon>
                <KindIcon meta={meta} size={32} />
              </ListItemIcon>
              <ListItemText
                primary={meta.label}
                secondary={meta.description}
                slotProps={{ primary: { sx: { fontWeight: 600 } }, secondary: { sx: { whiteSpace: 'normal' } } }}
              />
            </MenuItem>
          );
        })}
      </Menu>
    </>
  );
}
