import DeleteOutlineRounded from '@mui/icons-material/DeleteOutlineRounded';
import DriveFileRenameOutlineRounded from '@mui/icons-material/DriveFileRenameOutlineRounded';
import ExpandMoreRounded from '@mui/icons-material/ExpandMoreRounded';
import FolderOutlined from '@mui/icons-material/FolderOutlined';
import FolderOpenOutlined from '@mui/icons-material/FolderOpenOutlined';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Collapse from '@mui/material/Collapse';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useId, type DragEvent, type ReactNode } from 'react';
import { plural } from '../format';
import type { Folder } from '../types';
import { ABOVE_ROW_LINK, ActionsMenu } from '../../../components/ActionsMenu';
import { ASSIGNMENT_DRAG_TYPE, RowList } from './ItemRow';

/** Props for {@link FolderSection}. */
export interface FolderSectionProps {
  folder: Folder;
  /** How many assignments it shows (under the current filter). */
  count: number;
  open: boolean;
  onToggle: () => void;
  onRename: () => void;
  onDelete: () => void;
  /** An assignment was dropped on the folder. */
  onDropAssignment: (assignmentId: string) => void;
  /** Highlighted while an assignment is dragged over it. */
  dropActive: boolean;
  onDragOverChange: (over: boolean) => void;
  /** The folder's rows (`<li>` elements). */
  children: ReactNode;
}

/** Whether a drag carries an assignment row. */
export function isAssignmentDrag(event: DragEvent): boolean {
  return Array.from(event.dataTransfer.types).includes(ASSIGNMENT_DRAG_TYPE);
}

/**
 * A folder of the library: a header that opens and closes it (a button with aria-expanded), a
 * "More" menu to rename or delete it, and its assignments. Assignment rows can be dropped on it.
 */
export function FolderSection({
  folder,
  count,
  open,
  onToggle,
  onRename,
  onDelete,
  onDropAssignment,
  dropActive,
  onDragOverChange,
  children,
}: FolderSectionProps) {
  const contentId = useId();
  const countText = plural(count, 'assignment');
  const FolderIcon = open ? FolderOpenOutlined : FolderOutlined;

  return (
    <Paper
      variant="outlined"
      component="section"
      aria-label={`Folder ${folder.name}`}
      onDragOver={(event: DragEvent) => {
        if (!isAssignmentDrag(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'move';
        if (!dropActive) onDragOverChange(true);
      }}
      onDragLeave={(event: DragEvent) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) onDragOverChange(false);
      }}
      onDrop={(event: DragEvent) => {
        if (!isAssignmentDrag(event)) return;
        event.preventDefault();
        onDragOverChange(false);
        const id = event.dataTransfer.getData(ASSIGNMENT_DRAG_TYPE);
        if (id) onDropAssignment(id);
      }}
      sx={{
        borderRadius: '12px',
        overflow: 'hidden',
        transition: 'box-shadow 120ms, border-color 120ms',
        ...(dropActive && { borderColor: 'primary.main', boxShadow: '0 0 0 2px rgba(23, 97, 107, 0.25)' }),
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', pr: 1, bgcolor: dropActive ? 'rgba(23, 97, 107, 0.06)' : '#fbfaf7' }}>
        <ButtonBase
          onClick={onToggle}
          aria-expanded={open}
          aria-controls={contentId}
          aria-label={`${folder.name}, ${countText}`}
          sx={{
            flex: 1,
            minWidth: 0,
            justifyContent: 'flex-start',
            gap: 1.5,
            pl: 2,
            pr: 1,
            py: 1.5,
            textAlign: 'left',
            borderRadius: '12px 0 0 12px',
            '&.Mui-focusVisible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: -2 },
          }}
        >
          <ExpandMoreRounded
            aria-hidden="true"
            sx={{ color: 'text.secondary', transition: 'transform 150ms', transform: open ? 'none' : 'rotate(-90deg)' }}
          />
          <FolderIcon aria-hidden="true" sx={{ color: 'primary.main' }} />
          <Box sx={{ minWidth: 0, display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', columnGap: 1.5 }}>
            <Typography component="span" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
              {folder.name}
            </Typography>{' '}
            {/* the space keeps "Term 1" and "0 assignments" apart in the text a speech user reads */}
            <Typography component="span" variant="body2" color="text.secondary">
              {countText}
            </Typography>
          </Box>
        </ButtonBase>
        <ActionsMenu
          label={`Actions for folder ${folder.name}`}
          buttonSx={ABOVE_ROW_LINK}
          actions={[
            { label: 'Rename folder', icon: <DriveFileRenameOutlineRounded fontSize="small" />, onSelect: onRename },
            { label: 'Delete folder', icon: <DeleteOutlineRounded fontSize="small" />, onSelect: onDelete, destructive: true },
          ]}
        />
      </Box>
      <Collapse in={open} id={contentId} unmountOnExit>
        <Box sx={{ borderTop: 1, borderColor: 'divider' }}>
          {count > 0 ? (
            <RowList label={`Assignments in ${folder.name}`}>{children}</RowList>
          ) : (
            <Typography variant="body2" color="text.secondary" sx={{ px: 2.5, py: 2 }}>
              This folder is empty. Move an assignment here from its actions menu, or drag it onto the folder.
            </Typography>
          )}
        </Box>
      </Collapse>
    </Paper>
  );
}
