import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { DeleteRubricDialog } from '../../../components/DeleteRubricDialog';
import { ShareDialog } from '../../../components/ShareDialog';
import { useToast } from '../../../components/toast';
import { useDeleteAssignment } from '../api/delete-assignment';
import { useDeleteRubric } from '../api/delete-rubric';
import { useShareItem } from '../api/share-item';
import type { useUpdateFolders } from '../api/update-folders';
import { foldersAfterDelete } from '../library-view';
import type { Folder, Library } from '../types';
import type { OpenDialog } from './library-dialog';
import { MoveAssignmentDialog } from './MoveAssignmentDialog';

/** Props for {@link LibraryDialogs}. */
export interface LibraryDialogsProps {
  library: Library;
  dialog: OpenDialog | null;
  closeDialog: () => void;
  /** Each assignment's folder (absent: top level). */
  folderOf: Map<string, string>;
  moveAssignment: (assignmentId: string, folderId: string | null, onDone?: () => void) => void;
  /** Saves the folders (deleting one); `pending` while a save runs. */
  updateFolders: ReturnType<typeof useUpdateFolders>;
}

/** The library's dialogs on its items: move, share, and the delete confirmations. */
export function LibraryDialogs({ library, dialog, closeDialog, folderOf, moveAssignment, updateFolders }: LibraryDialogsProps) {
  const { showToast } = useToast();
  const deleteAssignment = useDeleteAssignment();
  const deleteRubric = useDeleteRubric();
  const share = useShareItem();

  const confirmDeleteFolder = (folder: Folder) =>
    updateFolders.mutate(
      { newFolders: foldersAfterDelete(library.folders, folder._id) },
      {
        onSuccess: () => {
          showToast({ type: 'success', message: 'Folder deleted successfully' });
          closeDialog();
        },
        onError: () => showToast({ type: 'error', message: 'Error deleting folder' }),
      },
    );

  switch (dialog?.kind) {
    case 'move':
      return (
        <MoveAssignmentDialog
          assignmentName={dialog.assignment.name}
          folders={[...library.folders].sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }))}
          currentFolderId={folderOf.get(dialog.assignment._id) ?? null}
          pending={updateFolders.isPending}
          onMove={(folderId) => moveAssignment(dialog.assignment._id, folderId, closeDialog)}
          onClose={closeDialog}
        />
      );
    case 'share':
      return (
        <ShareDialog
          name={dialog.item.name}
          noun={dialog.item.kind}
          onShare={(email) => share.mutateAsync({ kind: dialog.item.kind, id: dialog.item.id, email })}
          onClose={closeDialog}
        />
      );
    case 'deleteAssignment':
      return (
        <ConfirmDialog
          open
          title={`Delete “${dialog.assignment.name}”?`}
          description="The assignment and all its submissions and results are deleted for your whole team. This can't be undone."
          confirmLabel="Delete assignment"
          pending={deleteAssignment.isPending}
          onClose={closeDialog}
          onConfirm={() => {
            // Spec §8: a failed delete shows no error and the dialog stays open.
            deleteAssignment.mutate(
              { assignmentId: dialog.assignment._id },
              {
                onSuccess: () => {
                  showToast({ type: 'success', message: 'Assignment deleted' });
                  closeDialog();
                },
              },
            );
          }}
        />
      );
    case 'deleteRubric':
      return (
        <DeleteRubricDialog
          open
          name={dialog.rubric.name}
          pending={deleteRubric.isPending}
          error={deleteRubric.error}
          onClose={() => {
            deleteRubric.reset();
            closeDialog();
          }}
          onConfirm={() => {
            // A refusal (the rubric is in use) shows in the dialog; nothing leaves the library.
            deleteRubric.mutate(
              { rubricId: dialog.rubric._id },
              {
                onSuccess: () => {
                  showToast({ type: 'success', message: 'Rubric deleted' });
                  closeDialog();
                },
              },
            );
          }}
        />
      );
    case 'deleteFolder':
      return (
        <ConfirmDialog
          open
          title={`Delete folder “${dialog.folder.name}”?`}
          description={
            dialog.folder.assignments.length > 0
              ? `${dialog.folder.assignments.length === 1 ? 'Its assignment moves' : `Its ${dialog.folder.assignments.length} assignments move`} back to the top of the library. No assignment is deleted.`
              : 'The folder is empty. No assignment is deleted.'
          }
          confirmLabel="Delete folder"
          pending={updateFolders.isPending}
          onClose={closeDialog}
          onConfirm={() => confirmDeleteFolder(dialog.folder)}
        />
      );
    default:
      return null;
  }
}
