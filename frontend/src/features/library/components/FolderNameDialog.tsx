import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useId, useState, type FormEvent } from 'react';
import { useToast } from '../../../components/toast';
import { lengthHint } from '../../../lib/length-hint';
import { useSingleFlight } from '../../../lib/use-single-flight';
import { useCreateFolder } from '../api/create-folder';
import { useLibrary } from '../api/get-library';
import { useUpdateFolders } from '../api/update-folders';
import { foldersAfterRename } from '../library-view';
import type { Folder } from '../types';

/** Longest folder name the API accepts. */
export const MAX_FOLDER_NAME = 200;

/** Props for {@link FolderNameDialog}. */
export interface FolderNameDialogProps {
  /** The folder to rename; without it, a new folder is created. */
  folder?: Folder;
  onClose: () => void;
}

function sameName(a: string, b: string): boolean {
  return a.trim().localeCompare(b.trim(), undefined, { sensitivity: 'base' }) === 0;
}

/**
 * Names a new folder (toasts 'Folder created successfully' or 'Error creating folder') or renames
 * one. A name another folder of the team already has is refused before anything is sent, and the
 * field says how close a long name is to the limit.
 */
export function FolderNameDialog({ folder, onClose }: FolderNameDialogProps) {
  const create = useCreateFolder();
  const update = useUpdateFolders();
  const library = useLibrary();
  const once = useSingleFlight({ lockAfterSuccess: true });
  const { showToast } = useToast();
  const [name, setName] = useState(folder?.name ?? '');
  const titleId = useId();
  const folders = library.data?.folders ?? [];
  const empty = name.trim() === '';
  const unchanged = folder !== undefined && name.trim() === folder.name;
  const twin = empty || unchanged ? undefined : folders.find((f) => f._id !== folder?._id && sameName(f.name, name));
  const pending = create.isPending || update.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (empty || twin) return;
    if (unchanged) return onClose();
    void once(async () => {
      if (folder) {
        await update.mutateAsync({ newFolders: foldersAfterRename(folders, folder._id, name.trim()) });
        showToast({ type: 'success', message: 'Folder renamed' });
      } else {
        await create.mutateAsync({ folderName: name.trim() });
        showToast({ type: 'success', message: 'Folder created successfully' });
      }
      onClose();
    }).catch(() => showToast({ type: 'error', message: folder ? 'Error renaming folder' : 'Error creating folder' }));
  };

  return (
    <Dialog open onClose={pending ? undefined : onClose} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>{folder ? 'Rename folder' : 'New folder'}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            label="Folder name"
            value={name}
            onChange={(event) => setName(event.target.value)}
            onFocus={(event) => folder && event.target.select()}
            error={twin !== undefined}
            helperText={
              twin
                ? `There is already a folder named “${twin.name}”.`
                : lengthHint(name, MAX_FOLDER_NAME)
            }
            slotProps={{ htmlInput: { maxLength: MAX_FOLDER_NAME } }}
            sx={{ mt: 1 }}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5, gap: 1 }}>
          <Button onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={empty || twin !== undefined} loading={pending}>
            {folder ? 'Rename' : 'Create folder'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
