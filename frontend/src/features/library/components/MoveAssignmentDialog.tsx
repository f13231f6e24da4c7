import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import { useId, useState, type FormEvent } from 'react';
import type { Folder } from '../types';

/** The radio value standing for "no folder". */
const TOP_LEVEL = '';

/** Props for {@link MoveAssignmentDialog}. */
export interface MoveAssignmentDialogProps {
  assignmentName: string;
  folders: Folder[];
  /** The folder holding the assignment now, or null at the top level. */
  currentFolderId: string | null;
  pending: boolean;
  onMove: (folderId: string | null) => void;
  onClose: () => void;
}

/** Picks where an assignment goes: one of the folders, or the top level. */
export function MoveAssignmentDialog({ assignmentName, folders, currentFolderId, pending, onMove, onClose }: MoveAssignmentDialogProps) {
  const [target, setTarget] = useState(currentFolderId ?? TOP_LEVEL);
  const titleId = useId();
  const current = currentFolderId ?? TOP_LEVEL;
  const label = (name: string, value: string) => (value === current ? `${name} (current)` : name);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (target === current) return;
    onMove(target === TOP_LEVEL ? null : target);
  };

  return (
    <Dialog open onClose={pending ? undefined : onClose} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <form onSubmit={submit}>
        <DialogTitle id={titleId} sx={{ overflowWrap: 'anywhere' }}>
          Move “{assignmentName}”
        </DialogTitle>
        <DialogContent>
          <RadioGroup aria-labelledby={titleId} value={target} onChange={(event) => setTarget(event.target.value)}>
            <FormControlLabel value={TOP_LEVEL} control={<Radio />} label={label('Top level', TOP_LEVEL)} />
            {folders.map((folder) => (
              <FormControlLabel
                key={folder._id}
                value={folder._id}
                control={<Radio />}
                label={label(folder.name, folder._id)}
                sx={{ '& .MuiFormControlLabel-label': { overflowWrap: 'anywhere' } }}
              />
            ))}
          </RadioGroup>
          {folders.length === 0 && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              You have no folders yet. Create one with New folder.
            </Typography>
          )}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5, gap: 1 }}>
          <Button onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={target === current} loading={pending}>
            Move
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
