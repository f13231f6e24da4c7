import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useId, useState, type FormEvent } from 'react';
import { useToast } from '../../../components/toast';
import { useSingleFlight } from '../../../lib/use-single-flight';
import { useCreateFolder } from '../api/create-folder';

/** Longest folder name the API accepts. */
const MAX_FOLDER_NAME = 200;

/** Props for {@link NewFolderDialog}. */
export interface NewFolderDialogProps {
  onClose: () => void;
}

/** Names and creates a folder; toasts 'Folder created successfully' or 'Error creating folder'. */
export function NewFolderDialog({ onClose }: NewFolderDialogProps) {
  const create = useCreateFolder();
  const once = useSingleFlight({ lockAfterSuccess: true });
  const { showToast } = useToast();
  const [name, setName] = useState('');
  const titleId = useId();
  const empty = name.trim() === '';

  // A double click on "Create folder" creates one folder.
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (empty) return;
    void once(async () => {
      await create.mutateAsync({ folderName: name.trim() });
      showToast({ type: 'success', message: 'Folder created successfully' });
      onClose();
    }).catch(() => showToast({ type: 'error', message: 'Error creating folder' }));
  };

  return (
    <Dialog open onClose={create.isPending ? undefined : onClose} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>New folder</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            label="Folder name"
            value={name}
            onChange={(event) => setName(event.target.value)}
            slotProps={{ htmlInput: { maxLength: MAX_FOLDER_NAME } }}
            sx={{ mt: 1 }}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5, gap: 1 }}>
          <Button onClick={onClose} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={empty} loading={create.isPending}>
            Create folder
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
