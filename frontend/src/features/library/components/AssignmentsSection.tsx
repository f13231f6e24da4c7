import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useState, type DragEvent } from 'react';
import { formatDate } from '../../../lib/format-date';
import { assignmentTypeMeta } from '../assignment-types';
import { plural } from '../format';
import type { LibraryView } from '../library-view';
import type { Folder, LibraryAssignment } from '../types';
import { FolderSection, isAssignmentDrag } from './FolderSection';
import type { MenuAction } from '../../../components/ActionsMenu';
import { ASSIGNMENT_DRAG_TYPE, ItemRow, RowList } from './ItemRow';
import { LibrarySection } from './LibraryPlaceholders';

/** Props for {@link AssignmentsSection}. */
export interface AssignmentsSectionProps {
  view: LibraryView;
  /** The library holds at least one assignment. */
  hasAnyAssignment: boolean;
  /** Each assignment's folder (absent: top level). */
  folderOf: Map<string, string>;
  openFolders: Set<string>;
  setFolderOpen: (folderId: string, open: boolean) => void;
  onRenameFolder: (folder: Folder) => void;
  onDeleteFolder: (folder: Folder) => void;
  /** Moves an assignment into a folder, or to the top level (null). */
  moveAssignment: (assignmentId: string, folderId: string | null) => void;
  assignmentActions: (assignment: LibraryAssignment) => MenuAction[];
}

/** The library's assignments: folders first, then those in no folder; drag one onto a folder to move it. */
export function AssignmentsSection({
  view,
  hasAnyAssignment,
  folderOf,
  openFolders,
  setFolderOpen,
  onRenameFolder,
  onDeleteFolder,
  moveAssignment,
  assignmentActions,
}: AssignmentsSectionProps) {
  const [draggingId, setDraggingId] = useState<string | null>(null);
  const [dropTarget, setDropTarget] = useState<string | null>(null);
  const draggingFromFolder = draggingId !== null && folderOf.has(draggingId);

  const assignmentRow = (assignment: LibraryAssignment) => {
    const submissions = assignment.submissions?.length ?? 0;
    return (
      <li key={assignment._id}>
        <ItemRow
          name={assignment.name}
          to={`/assignment/${assignment._id}`}
          meta={assignmentTypeMeta(assignment.type)}
          detail={submissions ? plural(submissions, 'submission') : 'No submissions yet'}
          updated={formatDate(assignment.updatedAt)}
          actions={assignmentActions(assignment)}
          dragId={assignment._id}
          dragging={draggingId === assignment._id}
          onDragStart={setDraggingId}
          onDragEnd={() => {
            setDraggingId(null);
            setDropTarget(null);
          }}
        />
      </li>
    );
  };

  const dropHandlers = (target: string | null) => ({
    onDragOver: (event: DragEvent) => {
      if (!isAssignmentDrag(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'move';
      setDropTarget(target ?? 'top');
    },
    onDragLeave: (event: DragEvent) => {
      if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDropTarget(null);
    },
    onDrop: (event: DragEvent) => {
      if (!isAssignmentDrag(event)) return;
      event.preventDefault();
      setDropTarget(null);
      const id = event.dataTransfer.getData(ASSIGNMENT_DRAG_TYPE);
      if (id) moveAssignment(id, target);
    },
  });

  return (
    <LibrarySection title="Assignments" count={view.topLevel.length + view.folders.reduce((n, f) => n + f.assignments.length, 0)}>
      {view.folders.map(({ folder, assignments }) => (
        <FolderSection
          key={folder._id}
          folder={folder}
          count={assignments.length}
          open={view.filtered || openFolders.has(folder._id)}
          onToggle={() => setFolderOpen(folder._id, !openFolders.has(folder._id))}
          onRename={() => onRenameFolder(folder)}
          onDelete={() => onDeleteFolder(folder)}
          onDropAssignment={(id) => moveAssignment(id, folder._id)}
          dropActive={dropTarget === folder._id}
          onDragOverChange={(over) => setDropTarget(over ? folder._id : null)}
        >
          {assignments.map(assignmentRow)}
        </FolderSection>
      ))}
      {view.topLevel.length > 0 ? (
        <Paper
          variant="outlined"
          {...dropHandlers(null)}
          sx={{
            borderRadius: '12px',
            overflow: 'hidden',
            ...(dropTarget === 'top' && { borderColor: 'primary.main', boxShadow: '0 0 0 2px rgba(23, 97, 107, 0.25)' }),
          }}
        >
          <RowList label={view.folders.length > 0 ? 'Assignments not in a folder' : 'Assignments'}>
            {view.topLevel.map(assignmentRow)}
          </RowList>
        </Paper>
      ) : draggingFromFolder ? (
        <Box
          {...dropHandlers(null)}
          sx={{
            border: '2px dashed',
            borderColor: dropTarget === 'top' ? 'primary.main' : 'divider',
            borderRadius: '12px',
            px: 2,
            py: 3,
            textAlign: 'center',
            color: 'text.secondary',
          }}
        >
          Drop here to take it out of its folder
        </Box>
      ) : (
        !hasAnyAssignment &&
        !view.filtered && (
          <Typography color="text.secondary" sx={{ px: 0.5 }}>
            No assignments yet. Create one with New assignment.
          </Typography>
        )
      )}
    </LibrarySection>
  );
}
