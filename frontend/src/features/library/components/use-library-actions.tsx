import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import DeleteOutlineRounded from '@mui/icons-material/DeleteOutlineRounded';
import DriveFileMoveOutlined from '@mui/icons-material/DriveFileMoveOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import IosShareRounded from '@mui/icons-material/IosShareRounded';
import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import { useSingleFlight } from '../../../lib/use-single-flight';
import { useDuplicateAssignment } from '../api/duplicate-assignment';
import { useUpdateFolders } from '../api/update-folders';
import { folderOfAssignments, foldersAfterMove } from '../library-view';
import type { Library, LibraryAssignment, LibraryRubric } from '../types';
import type { MenuAction } from '../../../components/ActionsMenu';
import type { OpenDialog } from './library-dialog';

/**
 * What the teacher can do to the library's items: move an assignment to a folder (by menu or by
 * dragging), and the actions of each row's menu. `setFolderOpen` opens the folder moved into.
 */
export function useLibraryActions(
  library: Library,
  setDialog: (dialog: OpenDialog | null) => void,
  setFolderOpen: (folderId: string, open: boolean) => void,
) {
  const navigate = useNavigate();
  const { showToast } = useToast();
  const updateFolders = useUpdateFolders();
  const duplicate = useDuplicateAssignment();
  const once = useSingleFlight({ lockAfterSuccess: true });
  const folderOf = useMemo(() => folderOfAssignments(library.folders), [library.folders]);

  const moveAssignment = (assignmentId: string, folderId: string | null, onDone?: () => void) => {
    if ((folderOf.get(assignmentId) ?? null) === folderId) return;
    updateFolders.mutate(
      { newFolders: foldersAfterMove(library.folders, assignmentId, folderId) },
      {
        onSuccess: () => {
          showToast({ type: 'success', message: 'Assignment moved successfully' });
          if (folderId) setFolderOpen(folderId, true);
          onDone?.();
        },
        onError: () => showToast({ type: 'error', message: 'Error moving assignment' }),
      },
    );
  };

  // Guarded here, not only disabled: the menu closes on the first click, yet a fast second click
  // still reaches the item (one "Copy of …", not two).
  const duplicateAssignment = (assignment: LibraryAssignment) =>
    void once(async () => {
      const copy = await duplicate.mutateAsync({ assignmentId: assignment._id });
      showToast({ type: 'success', message: 'Assignment duplicated' });
      navigate(`/assignment/${copy._id}`);
    }).catch((error: unknown) =>
      showToast({ type: 'error', message: errorMessage(error, "Couldn't duplicate the assignment. Please try again.") }),
    );

  const assignmentActions = (assignment: LibraryAssignment): MenuAction[] => [
    {
      label: 'Move to folder…',
      icon: <DriveFileMoveOutlined fontSize="small" />,
      onSelect: () => setDialog({ kind: 'move', assignment }),
    },
    {
      label: 'Duplicate',
      icon: <ContentCopyOutlined fontSize="small" />,
      onSelect: () => duplicateAssignment(assignment),
      disabled: duplicate.isPending,
    },
    {
      label: 'Share…',
      icon: <IosShareRounded fontSize="small" />,
      onSelect: () => setDialog({ kind: 'share', item: { kind: 'assignment', id: assignment._id, name: assignment.name } }),
    },
    {
      label: 'Delete',
      icon: <DeleteOutlineRounded fontSize="small" />,
      onSelect: () => setDialog({ kind: 'deleteAssignment', assignment }),
      destructive: true,
    },
  ];

  const rubricActions = (rubric: LibraryRubric): MenuAction[] => [
    { label: 'Edit', icon: <EditOutlined fontSize="small" />, onSelect: () => navigate(`/rubrics/${rubric._id}`) },
    {
      label: 'Share…',
      icon: <IosShareRounded fontSize="small" />,
      onSelect: () => setDialog({ kind: 'share', item: { kind: 'rubric', id: rubric._id, name: rubric.name } }),
    },
    {
      label: 'Delete',
      icon: <DeleteOutlineRounded fontSize="small" />,
      onSelect: () => setDialog({ kind: 'deleteRubric', rubric }),
      destructive: true,
    },
  ];

  return { folderOf, moveAssignment, assignmentActions, rubricActions, updateFolders };
}
